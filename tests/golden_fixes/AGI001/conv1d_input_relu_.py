"""``nn.Conv1d`` saves its input; activating that input in place after the convolution breaks backward."""
import torch
from torch import nn


class TwoPath(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Conv1d(2, 4, 3, padding=1)
        self.conv = nn.Conv1d(4, 4, 3, padding=1)

    def forward(self, x):
        h = self.stem(x)
        y = self.conv(h)
        h = h.relu()  # expect: AGI001
        return y + h


def run():
    torch.manual_seed(0)
    model = TwoPath()
    out = model(torch.randn(1, 2, 6))
    out.sum().backward()
    return out


if __name__ == "__main__":
    print(run())
