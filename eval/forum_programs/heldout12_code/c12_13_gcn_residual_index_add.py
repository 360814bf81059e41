# source: PyG GCNConv (gcn_norm + propagate with index_add_) in a deep residual GCN for node classification
# Residual GCN stack with symmetric normalisation, index_add_ aggregation and a residual update of node features.
import torch
import torch.nn as nn
import torch.nn.functional as F


def gcn_norm(edge_index, num_nodes):
    loops = torch.arange(num_nodes)
    src = torch.cat([edge_index[0], loops])
    dst = torch.cat([edge_index[1], loops])
    deg = torch.zeros(num_nodes).index_add_(0, dst, torch.ones(dst.numel()))
    deg_inv_sqrt = deg.pow_(-0.5)
    deg_inv_sqrt[deg_inv_sqrt == float("inf")] = 0.0
    return torch.stack([src, dst]), deg_inv_sqrt[src] * deg_inv_sqrt[dst]


class GCNConv(nn.Module):
    def __init__(self, in_dim, out_dim):
        super().__init__()
        self.lin = nn.Linear(in_dim, out_dim, bias=False)
        self.bias = nn.Parameter(torch.zeros(out_dim))

    def propagate(self, h, edge_index, edge_weight):
        src, dst = edge_index
        msg = h.index_select(0, src) * edge_weight.unsqueeze(-1)
        return torch.zeros_like(h).index_add_(0, dst, msg)

    def forward(self, x, edge_index, edge_weight):
        return self.propagate(self.lin(x), edge_index, edge_weight) + self.bias


class ResGCN(nn.Module):
    def __init__(self, in_dim, hidden, num_classes, num_layers=3, dropout=0.2):
        super().__init__()
        self.encoder = nn.Linear(in_dim, hidden)
        self.convs = nn.ModuleList([GCNConv(hidden, hidden) for _ in range(num_layers)])
        self.norms = nn.ModuleList([nn.LayerNorm(hidden) for _ in range(num_layers)])
        self.dropout = dropout
        self.head = nn.Linear(hidden, num_classes)

    def forward(self, x, edge_index):
        edge_index, edge_weight = gcn_norm(edge_index, x.size(0))
        x = F.relu(self.encoder(x))
        for conv, norm in zip(self.convs, self.norms):
            h = F.dropout(norm(conv(x, edge_index, edge_weight)), self.dropout, self.training)
            x += F.relu(h)  # culprit
        return self.head(x)


def random_graph(num_nodes, num_edges, gen):
    src = torch.randint(0, num_nodes, (num_edges,), generator=gen)
    dst = torch.randint(0, num_nodes, (num_edges,), generator=gen)
    return torch.cat([torch.stack([src, dst]), torch.stack([dst, src])], dim=1)


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    x = torch.randn(20, 8)
    edge_index = random_graph(20, 40, gen)
    y = torch.randint(0, 3, (20,))
    train_mask = torch.rand(20) < 0.6
    model = ResGCN(8, 16, 3)
    opt = torch.optim.Adam(model.parameters(), lr=0.01, weight_decay=5e-4)
    out = model(x, edge_index)
    loss = F.cross_entropy(out[train_mask], y[train_mask])
    opt.zero_grad()
    loss.backward()
    opt.step()
    print("loss", loss.item())


if __name__ == "__main__":
    main()
