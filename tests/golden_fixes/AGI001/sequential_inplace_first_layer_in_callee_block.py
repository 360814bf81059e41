"""A pre-activation block whose body is ``nn.Sequential(nn.ReLU(inplace=True), conv, ...)``: its first layer
rewrites the block's input itself. The parent hands the block a tensor ``torch.sigmoid`` saved (its result,
for its gradient), so the block's ReLU makes that save stale, one class away from it."""
import torch
from torch import nn


class PreActBlock(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.body = nn.Sequential(
            nn.ReLU(),  # expect: AGI001
            nn.Conv1d(c, c, 1),
        )

    def forward(self, x):
        return self.body(x)


class Gated(nn.Module):
    def __init__(self, c=3):
        super().__init__()
        self.gate = nn.Conv1d(c, c, 1)
        self.block = PreActBlock(c)

    def forward(self, x):
        g = torch.sigmoid(self.gate(x))
        return self.block(g)


def run():
    torch.manual_seed(0)
    out = Gated()(torch.randn(2, 3, 4))
    out.sum().backward()
    return out


if __name__ == "__main__":
    print(run())
