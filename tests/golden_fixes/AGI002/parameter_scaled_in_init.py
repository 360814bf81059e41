"""Scaling an ``nn.Parameter`` in ``__init__`` without ``no_grad``: ``self.w.mul_(0.1)`` is in-place on a
leaf that requires grad, so constructing the module already raises."""
import torch
from torch import nn


class Scale(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.w = nn.Parameter(torch.randn(dim, dim))
        with torch.no_grad():
            self.w.mul_(0.1)  # expect: AGI002

    def forward(self, x):
        return x @ self.w


def run():
    torch.manual_seed(0)
    model = Scale(3)
    out = model(torch.randn(2, 3))
    out.sum().backward()
    return out


if __name__ == "__main__":
    print(run())
