# GNN: neighbour features gathered with an index tensor (a copy), then scaled in place by edge weights
import torch
import torch.nn as nn


class WeightedConv(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.lin = nn.Linear(d, d)
        self.edge_w = nn.Parameter(torch.ones(6))

    def forward(self, x, src, dst):
        h = torch.tanh(self.lin(x))
        nbr = h[src]
        nbr *= self.edge_w.unsqueeze(-1)
        out = torch.zeros_like(h).index_add_(0, dst, nbr)
        return out + h


torch.manual_seed(0)
conv = WeightedConv(3)
src = torch.tensor([0, 1, 2, 3, 0, 2])
dst = torch.tensor([1, 2, 3, 0, 3, 1])
conv(torch.randn(4, 3), src, dst).sum().backward()
print(conv.edge_w.grad)
