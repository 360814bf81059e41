# Edge-gated GNN: sigmoid edge weights used in the messages, then normalised per node in place
import torch
import torch.nn as nn


class EdgeGatedConv(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.edge_mlp = nn.Linear(2 * d, 1)
        self.lin = nn.Linear(d, d)

    def forward(self, x, src, dst):
        w = torch.sigmoid(self.edge_mlp(torch.cat([x[src], x[dst]], -1))).squeeze(-1)
        msg = self.lin(x)[src] * w.unsqueeze(-1)
        out = torch.zeros_like(x).scatter_add_(0, dst.unsqueeze(-1).expand_as(msg), msg)
        wsum = torch.zeros(x.shape[0]).scatter_add_(0, dst, w)
        w /= wsum[dst] + 1e-6  # culprit
        return out, w


torch.manual_seed(0)
conv = EdgeGatedConv(3)
x = torch.randn(4, 3)
src = torch.tensor([0, 1, 2, 3, 1])
dst = torch.tensor([1, 2, 3, 0, 0])
out, w = conv(x, src, dst)
out.sum().backward()
print(conv.edge_mlp.weight.grad)
