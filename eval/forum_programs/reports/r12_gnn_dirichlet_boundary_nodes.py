# intended: AGI001
# like: forum thread on a mesh GNN surrogate, boundary-node hidden states overwritten after each GCN layer
import torch
import torch.nn as nn
import torch.nn.functional as F


def normalized_adjacency(edge_index, num_nodes):
    adj = torch.zeros(num_nodes, num_nodes)
    adj[edge_index[0], edge_index[1]] = 1.0
    adj = adj + torch.eye(num_nodes)
    deg = adj.sum(1)
    d_inv_sqrt = deg.pow(-0.5)
    return d_inv_sqrt[:, None] * adj * d_inv_sqrt[None, :]


class GraphConv(nn.Module):
    def __init__(self, in_dim, out_dim):
        super().__init__()
        self.lin = nn.Linear(in_dim, out_dim)

    def forward(self, x, adj):
        return adj @ self.lin(x)


class MeshGNN(nn.Module):
    def __init__(self, in_dim=3, hid=16, n_layers=3):
        super().__init__()
        self.inp = GraphConv(in_dim, hid)
        self.convs = nn.ModuleList(GraphConv(hid, hid) for _ in range(n_layers))
        self.bc_enc = nn.Linear(1, hid)
        self.out = nn.Linear(hid, 1)

    def forward(self, x, adj, bc_idx, bc_val):
        h = F.relu(self.inp(x, adj))
        bc_h = self.bc_enc(bc_val)
        for conv in self.convs:
            h = F.relu(conv(h, adj))
            h[bc_idx] = bc_h  # culprit
        return self.out(h)


def main():
    torch.manual_seed(0)
    n = 12
    src = torch.arange(n - 1)
    edge_index = torch.cat([torch.stack([src, src + 1]), torch.stack([src + 1, src])], 1)
    adj = normalized_adjacency(edge_index, n)
    x = torch.randn(n, 3)
    bc_idx = torch.tensor([0, n - 1])
    bc_val = torch.tensor([[1.0], [0.0]])
    y = torch.linspace(1.0, 0.0, n)[:, None]
    model = MeshGNN()
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for epoch in range(3):
        pred = model(x, adj, bc_idx, bc_val)
        loss = F.mse_loss(pred, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(epoch, loss.item())


if __name__ == "__main__":
    main()
