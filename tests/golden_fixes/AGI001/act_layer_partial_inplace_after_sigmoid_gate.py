"""timm-style layer factories: the block's activation comes from ``act_layer=partial(nn.ReLU6,
inplace=True)``. Applied to a sigmoid gate, the in-place activation overwrites the sigmoid's saved result."""
from functools import partial

import torch
from torch import nn


class GatedBlock(nn.Module):
    def __init__(self, dim, act_layer=partial(nn.ReLU6)):
        super().__init__()
        self.value = nn.Linear(dim, dim)
        self.gate = nn.Linear(dim, dim)
        self.act = act_layer()

    def forward(self, x):
        gate = torch.sigmoid(self.gate(x))
        gate = self.act(gate)  # expect: AGI001
        return self.value(x) * gate


def run():
    torch.manual_seed(0)
    block = GatedBlock(4)
    out = block(torch.randn(2, 4))
    out.sum().backward()
    return out


if __name__ == "__main__":
    print(run())
