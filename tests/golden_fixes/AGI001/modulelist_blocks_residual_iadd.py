"""A stack of blocks built by a comprehension and run in a loop, with the residual added in place: each
block's first Linear saved ``x`` (its input) for its weight's gradient, and ``x +=`` overwrites it.
``x = x + block(x)`` is the fix."""
import torch
from torch import nn


class MLPStack(nn.Module):
    def __init__(self, dim, depth):
        super().__init__()
        self.blocks = nn.ModuleList([nn.Sequential(nn.Linear(dim, dim), nn.GELU()) for _ in range(depth)])
        self.embed = nn.Linear(dim, dim)
        self.head = nn.Linear(dim, 1)

    def forward(self, x):
        x = self.embed(x)
        for block in self.blocks:
            x = x + block(x)  # expect: AGI001
        return self.head(x)


def run():
    torch.manual_seed(0)
    model = MLPStack(4, 3)
    out = model(torch.randn(2, 4))
    out.sum().backward()
    return out


if __name__ == "__main__":
    print(run())
