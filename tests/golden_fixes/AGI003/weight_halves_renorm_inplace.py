"""Renormalising half of a parameter in forward: ``self.weight.chunk(2)`` are views of a leaf that
requires grad, and ``div_`` on one of them raises at once."""
import torch
from torch import nn


class SplitLinear(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(2 * dim, dim))

    def forward(self, x):
        top, bottom = self.weight.chunk(2, dim=0)
        top = top.div(top.norm())  # expect: AGI003
        return x @ torch.cat([top, bottom]).t()


def run():
    torch.manual_seed(0)
    out = SplitLinear(3)(torch.randn(2, 3))
    out.sum().backward()
    return out
