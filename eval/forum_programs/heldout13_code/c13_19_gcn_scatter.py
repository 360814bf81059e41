# source: PyTorch Geometric GCNConv / gcn_norm style propagation with index_add_ aggregation
# Two-layer GCN for semi-supervised node classification on a random graph, with symmetric normalisation.
import torch
import torch.nn as nn
import torch.nn.functional as F


def add_remaining_self_loops(edge_index, num_nodes):
    mask = edge_index[0] != edge_index[1]
    loops = torch.arange(num_nodes).repeat(2, 1)
    return torch.cat([edge_index[:, mask], loops], dim=1)


def gcn_norm(edge_index, num_nodes, edge_weight=None):
    edge_index = add_remaining_self_loops(edge_index, num_nodes)
    if edge_weight is None:
        edge_weight = torch.ones(edge_index.size(1))
    row, col = edge_index
    deg = torch.zeros(num_nodes).index_add_(0, col, edge_weight)
    deg_inv_sqrt = deg.pow_(-0.5)
    deg_inv_sqrt.masked_fill_(deg_inv_sqrt == float("inf"), 0)
    return edge_index, deg_inv_sqrt[row] * edge_weight * deg_inv_sqrt[col]


class GCNConv(nn.Module):
    def __init__(self, in_channels, out_channels, bias=True, cached=True):
        super().__init__()
        self.lin = nn.Linear(in_channels, out_channels, bias=False)
        self.bias = nn.Parameter(torch.zeros(out_channels)) if bias else None
        self.cached = cached
        self._cached_edge_index = None
        nn.init.xavier_uniform_(self.lin.weight)

    def forward(self, x, edge_index):
        if self._cached_edge_index is None or not self.cached:
            self._cached_edge_index = gcn_norm(edge_index, x.size(0))
        edge_index, norm = self._cached_edge_index
        x = self.lin(x)
        src, dst = edge_index
        msg = x.index_select(0, src) * norm.view(-1, 1)
        out = torch.zeros_like(x)
        out.index_add_(0, dst, msg)
        if self.bias is not None:
            out += self.bias
        return out


class GCN(nn.Module):
    def __init__(self, in_dim, hidden, num_classes, dropout=0.5, act_layer=nn.ReLU):
        super().__init__()
        self.conv1 = GCNConv(in_dim, hidden)
        self.conv2 = GCNConv(hidden, num_classes)
        self.act = act_layer(inplace=True)
        self.dropout = dropout

    def forward(self, x, edge_index):
        x = F.dropout(x, p=self.dropout, training=self.training)
        x = self.act(self.conv1(x, edge_index))
        x = F.dropout(x, p=self.dropout, training=self.training)
        return self.conv2(x, edge_index)


torch.manual_seed(0)
num_nodes = 30
x = torch.randn(num_nodes, 12)
edge_index = torch.randint(0, num_nodes, (2, 90))
edge_index = torch.cat([edge_index, edge_index.flip(0)], dim=1)
y = torch.randint(0, 4, (num_nodes,))
train_mask = torch.zeros(num_nodes, dtype=torch.bool)
train_mask[:12] = True
model = GCN(12, 16, 4)
optimizer = torch.optim.Adam(model.parameters(), lr=0.01, weight_decay=5e-4)
for epoch in range(5):
    model.train()
    optimizer.zero_grad()
    out = model(x, edge_index)
    loss = F.cross_entropy(out[train_mask], y[train_mask])
    loss.backward()
    optimizer.step()
    model.eval()
    with torch.no_grad():
        pred = model(x, edge_index).argmax(dim=-1)
        acc = (pred[~train_mask] == y[~train_mask]).float().mean()
    print(f"epoch {epoch} loss {loss.item():.4f} val_acc {acc.item():.3f}")
