"""``nn.Sequential`` with ``nn.Tanh()`` followed by ``nn.ReLU(inplace=True)``: Tanh saves its output and
the in-place ReLU overwrites it. The finding is on the line of the ``nn.ReLU(inplace=True)`` element."""
import torch
from torch import nn


def build():
    return nn.Sequential(
        nn.Linear(4, 8),
        nn.Tanh(),
        nn.ReLU(),  # expect: AGI001
        nn.Linear(8, 1),
    )


def run():
    torch.manual_seed(0)
    model = build()
    x = torch.randn(3, 4)
    out = model(x)
    out.sum().backward()
    return out


if __name__ == "__main__":
    print(run())
