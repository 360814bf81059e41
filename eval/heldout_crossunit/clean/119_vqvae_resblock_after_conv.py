# Source: rosinality/vq-vae-2-pytorch#60 (ResBlock opening with nn.ReLU(inplace=True)). In the
# original encoder the block's input is a conv output, which no backward formula needs.
# Clean look-alike of hazard/028 (no autograd error; the residual then adds the rectified input).
# Unit kind: class.
import torch
import torch.nn as nn

torch.manual_seed(0)


class ResBlock(nn.Module):
    def __init__(self, in_channel, channel):
        super().__init__()
        self.conv = nn.Sequential(
            nn.ReLU(inplace=True),
            nn.Conv2d(in_channel, channel, 3, padding=1),
            nn.ReLU(inplace=True),
            nn.Conv2d(channel, in_channel, 1),
        )

    def forward(self, input):
        out = self.conv(input)
        out += input
        return out


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv_in = nn.Conv2d(3, 4, 3, padding=1)
        self.res = ResBlock(4, 8)

    def forward(self, x):
        h = self.conv_in(x)
        return self.res(h)


Encoder()(torch.randn(1, 3, 5, 5)).sum().backward()
print("done")
