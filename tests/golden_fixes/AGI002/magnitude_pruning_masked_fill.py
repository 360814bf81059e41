"""Magnitude pruning on a layer's weight without ``no_grad``: ``masked_fill_`` on an ``nn.Parameter``
raises at once."""
import torch
from torch import nn


def prune_(layer, threshold):
    with torch.no_grad():
        layer.weight.masked_fill_(layer.weight.abs() < threshold, 0.0)  # expect: AGI002


def run():
    torch.manual_seed(0)
    layer = nn.Linear(4, 3)
    prune_(layer, 0.2)
    out = layer(torch.randn(2, 4))
    out.sum().backward()
    return out


if __name__ == "__main__":
    print(run())
