"""An ``nn.Module`` whose ``forward`` applies an ``nn.ReLU(inplace=True)`` after a sigmoid: the sigmoid
saved its output and the in-place activation overwrites it (the finding is on the ``self.act`` call)."""
import torch
from torch import nn


class Gate(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.fc = nn.Linear(dim, dim)
        self.act = nn.ReLU()

    def forward(self, x):
        h = torch.sigmoid(self.fc(x))
        h = self.act(h)  # expect: AGI001
        return h


def run():
    torch.manual_seed(0)
    model = Gate(4)
    x = torch.randn(2, 4)
    out = model(x)
    out.sum().backward()
    return out


if __name__ == "__main__":
    print(run())
