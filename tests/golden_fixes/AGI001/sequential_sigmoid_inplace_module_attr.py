"""A module keeping an ``nn.Sequential`` in ``__init__`` whose ``nn.Sigmoid()`` is followed by an in-place
``nn.Hardtanh(inplace=True)``: the sigmoid's saved output is overwritten inside the container."""
import torch
from torch import nn


class Head(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(
            nn.Linear(5, 5),
            nn.Sigmoid(),
            nn.Hardtanh(0.0, 0.6),  # expect: AGI001
        )
        self.out = nn.Linear(5, 2)

    def forward(self, x):
        return self.out(self.body(x))


def run():
    torch.manual_seed(0)
    model = Head()
    y = model(torch.randn(4, 5))
    y.pow(2).mean().backward()
    return y


if __name__ == "__main__":
    print(run())
