"""A residual written in place, ``x += self.fc(x)``: ``nn.Linear`` saved its input ``x`` (its weight
requires grad), and the ``+=`` overwrites that input in the same statement."""
import torch
from torch import nn


class Block(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.inp = nn.Linear(dim, dim)
        self.fc = nn.Linear(dim, dim)

    def forward(self, x):
        x = self.inp(x)
        x = x + self.fc(x)  # expect: AGI001
        return x


def run():
    torch.manual_seed(0)
    block = Block(4)
    out = block(torch.randn(3, 4))
    out.sum().backward()
    return out


if __name__ == "__main__":
    print(run())
