"""A timm-style block takes its activation as ``act_layer`` (default ``nn.GELU``) and is built with
``act_layer=partial(nn.ReLU, inplace=True)``. The block applies the activation to a sigmoid gate, and
sigmoid saved its output for backward: the in-place ReLU overwrites it, so backward raises. The
activation comes from the call building the block, not from the block's own code."""
from functools import partial

import torch
from torch import nn


class GatedMlp(nn.Module):
    def __init__(self, dim, hidden, act_layer=nn.GELU):
        super().__init__()
        self.fc1 = nn.Linear(dim, hidden)
        self.gate = nn.Linear(dim, hidden)
        self.act = act_layer()
        self.fc2 = nn.Linear(hidden, dim)

    def forward(self, x):
        g = torch.sigmoid(self.gate(x))
        g = self.act(g)  # expect: AGI001
        return x + self.fc2(self.fc1(x) * g)


def run():
    torch.manual_seed(0)
    block = GatedMlp(8, 16, act_layer=partial(nn.ReLU))
    x = torch.randn(4, 8)
    out = block(x)
    out.pow(2).mean().backward()
    return out


if __name__ == "__main__":
    print(run())
