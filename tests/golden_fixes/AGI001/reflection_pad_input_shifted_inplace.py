"""A style-transfer decoder: ``nn.ReflectionPad2d`` keeps its input for backward (measured: its ATen
backward reads ``self``), so shifting the upsampled map in place after padding it breaks backward."""
import torch
import torch.nn as nn


class UpsampleConv(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.up = nn.Upsample(scale_factor=2, mode="nearest")
        self.pad = nn.ReflectionPad2d(1)
        self.conv = nn.Conv2d(channels, channels, 3)

    def forward(self, x):
        u = self.up(x)
        padded = self.pad(u)
        u = u + 0.5  # expect: AGI001
        return self.conv(padded) + u.mean()


def run():
    torch.manual_seed(0)
    block = UpsampleConv(3)
    x = torch.randn(1, 3, 4, 4, requires_grad=True)
    out = block(x)
    out.sum().backward()
    return out


if __name__ == "__main__":
    print(run().shape)
