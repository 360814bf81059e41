# Source: rosinality/vq-vae-2-pytorch#60 ("ResBlock with inplace relu?": self.conv starts with
# nn.ReLU(inplace=True), so the block rewrites its input before out += input).
# Unit kind: class -- the encoder's tanh saves its output; the ResBlock class rewrites it.
import torch
import torch.nn as nn

torch.manual_seed(0)


class ResBlock(nn.Module):
    def __init__(self, in_channel, channel):
        super().__init__()
        self.conv = nn.Sequential(
            nn.ReLU(inplace=True),  # culprit
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
        h = torch.tanh(self.conv_in(x))
        return self.res(h)


Encoder()(torch.randn(1, 3, 5, 5)).sum().backward()
print("done")
