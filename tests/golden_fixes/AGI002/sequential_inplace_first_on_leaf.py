"""An ``nn.Sequential`` that starts with ``nn.ReLU(inplace=True)``, fed a leaf input that requires grad:
the in-place ReLU writes the leaf and raises (the finding is on the ``nn.ReLU(inplace=True)`` element)."""
import torch
from torch import nn


def run():
    torch.manual_seed(0)
    net = nn.Sequential(
        nn.ReLU(),  # expect: AGI002
        nn.Linear(4, 2),
    )
    x = torch.randn(3, 4, requires_grad=True)
    out = net(x)
    out.sum().backward()
    return out


if __name__ == "__main__":
    print(run())
