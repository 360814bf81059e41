"""A gated linear unit that gates in place: the two halves come from ``chunk`` on the projection, so
``value.mul_(...)`` writes an output view of a multi-view function."""
import torch
from torch import nn


class GLU(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.proj = nn.Linear(dim, 2 * dim)

    def forward(self, x):
        value, gate = self.proj(x).chunk(2, dim=-1)
        value = value.mul(torch.sigmoid(gate))  # expect: AGI003
        return value


def run():
    torch.manual_seed(0)
    out = GLU(4)(torch.randn(3, 4))
    out.sum().backward()
    return out
