# source: GCN / GraphSAGE message passing layer (PyG-style scatter aggregation written with index_add_)
# description: neighbor messages are scatter-added in-place into the node features that the message Linear saved as its input
import torch
import torch.nn as nn


class SAGELayer(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.lin_msg = nn.Linear(dim, dim)
        self.lin_out = nn.Linear(dim, dim)

    def propagate(self, h, edge_index):
        src, dst = edge_index
        msg = self.lin_msg(h)[src]
        deg = torch.zeros(h.shape[0]).index_add_(0, dst, torch.ones(dst.numel())).clamp_(min=1)
        h.index_add_(0, dst, msg / deg[dst, None])  # culprit
        return h

    def forward(self, h, edge_index):
        return torch.relu(self.lin_out(self.propagate(h, edge_index)))


class GNN(nn.Module):
    def __init__(self, in_dim, dim, n_layers=2):
        super().__init__()
        self.enc = nn.Linear(in_dim, dim)
        self.layers = nn.ModuleList([SAGELayer(dim) for _ in range(n_layers)])
        self.readout = nn.Linear(dim, 1)

    def forward(self, x, edge_index):
        h = self.enc(x)
        for layer in self.layers:
            h = layer(h, edge_index)
        return self.readout(h.mean(0))


if __name__ == "__main__":
    torch.manual_seed(0)
    x = torch.randn(5, 3)
    edge_index = torch.tensor([[0, 1, 2, 3, 4, 1], [1, 2, 3, 4, 0, 3]])
    model = GNN(3, 8)
    loss = model(x, edge_index).pow(2).sum()
    loss.backward()
