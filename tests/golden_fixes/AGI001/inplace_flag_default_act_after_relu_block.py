"""A ResNet-style stage whose modules take an ``inplace=True`` flag (timm's convention) and build
``nn.ReLU(inplace=inplace)``; the network builds them with the default. The stage's conv block already
ends in a ReLU, which saves its result for backward, and the stage then applies its own in-place ReLU to
that result: the second ReLU overwrites the tensor the first one saved."""
import torch
import torch.nn as nn


class ConvAct(nn.Module):
    def __init__(self, cin, cout, inplace=True):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, 3, padding=1)
        self.act = nn.ReLU(inplace=inplace)

    def forward(self, x):
        return self.act(self.conv(x))


class Stage(nn.Module):
    def __init__(self, channels, inplace=True):
        super().__init__()
        self.block = ConvAct(channels, channels)
        self.post_act = nn.ReLU()

    def forward(self, x):
        out = self.block(x)
        return self.post_act(out)  # expect: AGI001


def run():
    torch.manual_seed(0)
    stem = nn.Conv2d(3, 4, 3, padding=1)
    stage = Stage(4)
    out = stage(stem(torch.randn(2, 3, 6, 6)))
    out.mean().backward()
    return out


if __name__ == "__main__":
    print(run())
