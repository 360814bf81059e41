"""An MLP whose layers are collected in a list step by step and unpacked into ``nn.Sequential(*layers)``,
ending in a sigmoid: the sigmoid saved its output, and the caller scales that output in place."""
import torch
from torch import nn


class Scorer(nn.Module):
    def __init__(self, dim, hidden):
        super().__init__()
        layers = [nn.Linear(dim, hidden), nn.ReLU()]
        layers.append(nn.Linear(hidden, 1))
        layers += [nn.Sigmoid()]
        self.net = nn.Sequential(*layers)

    def forward(self, x):
        score = self.net(x)
        score = score.mul(10.0)  # expect: AGI001
        return score


def run():
    torch.manual_seed(0)
    model = Scorer(4, 8)
    out = model(torch.randn(3, 4))
    out.sum().backward()
    return out


if __name__ == "__main__":
    print(run())
