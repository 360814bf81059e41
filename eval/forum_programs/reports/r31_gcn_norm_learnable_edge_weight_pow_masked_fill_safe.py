# intended: safe
# like: PyG gcn_norm, deg.pow_(-0.5) then masked_fill_(inf, 0) -- here with learnable edge weights that require grad
import torch
import torch.nn as nn
import torch.nn.functional as F


def gcn_norm(edge_index, edge_weight, num_nodes):
    row, col = edge_index
    deg = torch.zeros(num_nodes).scatter_add(0, col, edge_weight)
    deg_inv_sqrt = deg.pow_(-0.5)
    deg_inv_sqrt.masked_fill_(deg_inv_sqrt == float("inf"), 0)
    return deg_inv_sqrt[row] * edge_weight * deg_inv_sqrt[col]


class GCNConv(nn.Module):
    def __init__(self, in_dim, out_dim):
        super().__init__()
        self.lin = nn.Linear(in_dim, out_dim, bias=False)
        self.bias = nn.Parameter(torch.zeros(out_dim))

    def forward(self, x, edge_index, edge_weight):
        norm = gcn_norm(edge_index, edge_weight, x.size(0))
        x = self.lin(x)
        row, col = edge_index
        out = torch.zeros_like(x).index_add(0, col, norm[:, None] * x[row])
        return out + self.bias


class GCN(nn.Module):
    def __init__(self, num_edges, in_dim=4, hid=16, n_classes=3):
        super().__init__()
        self.edge_logits = nn.Parameter(torch.zeros(num_edges))
        self.conv1 = GCNConv(in_dim, hid)
        self.conv2 = GCNConv(hid, n_classes)

    def forward(self, x, edge_index):
        edge_weight = torch.sigmoid(self.edge_logits) * 2
        x = F.relu(self.conv1(x, edge_index, edge_weight))
        x = F.dropout(x, p=0.5, training=self.training)
        return self.conv2(x, edge_index, edge_weight)


def main():
    torch.manual_seed(0)
    n = 10
    src = torch.randint(0, n - 1, (24,))
    edge_index = torch.stack([src, (src + 1 + torch.randint(0, 3, (24,))) % (n - 1)])
    x, y = torch.randn(n, 4), torch.randint(0, 3, (n,))
    model = GCN(edge_index.size(1))
    optimizer = torch.optim.Adam(model.parameters(), lr=0.01, weight_decay=5e-4)
    train_mask = torch.arange(n) < 7
    for epoch in range(3):
        model.train()
        out = model(x, edge_index)
        loss = F.cross_entropy(out[train_mask], y[train_mask])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(epoch, loss.item())


if __name__ == "__main__":
    main()
