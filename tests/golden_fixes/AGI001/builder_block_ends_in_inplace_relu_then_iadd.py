"""Blocks built by a helper (``conv_bn_relu`` returns an ``nn.Sequential`` ending in ``nn.ReLU(inplace=True)``,
whose output ReLU saves): adding the encoder skip to a decoder block's output in place breaks backward.
The helper is followed like the module it returns."""
import torch
import torch.nn as nn


def conv_bn_relu(cin, cout):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout),
                         nn.ReLU(inplace=True))


class TinyUNet(nn.Module):
    def __init__(self, channels=8):
        super().__init__()
        self.enc = conv_bn_relu(3, channels)
        self.down = nn.MaxPool2d(2)
        self.mid = conv_bn_relu(channels, channels)
        self.up = nn.Upsample(scale_factor=2)
        self.dec = conv_bn_relu(channels, channels)
        self.head = nn.Conv2d(channels, 2, 1)

    def forward(self, x):
        skip = self.enc(x)
        d = self.dec(self.up(self.mid(self.down(skip))))
        d = d + skip  # expect: AGI001
        return self.head(d)


def run():
    torch.manual_seed(0)
    out = TinyUNet()(torch.randn(2, 3, 8, 8))
    out.mean().backward()
    return out


if __name__ == "__main__":
    print(run().shape)
