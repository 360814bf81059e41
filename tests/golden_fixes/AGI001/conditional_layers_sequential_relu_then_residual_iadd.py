"""A U-Net encoding block (re-created from fepegar/unet#36): its convolutional block appends a
normalisation and ``getattr(nn, activation)()`` only when configured (defaults: batch norm, ``"ReLU"``),
then wraps the list in ``nn.Sequential``. The ReLU saves its result, the block's output, and the
residual ``x += connection`` overwrites it."""
import torch
import torch.nn as nn


class ConvolutionalBlock(nn.Module):
    def __init__(self, in_channels, out_channels, normalization="batch", activation="ReLU", kernel_size=3):
        super().__init__()
        block = nn.ModuleList()
        block.append(nn.Conv2d(in_channels, out_channels, kernel_size, padding=kernel_size // 2))
        if normalization is not None:
            block.append(nn.BatchNorm2d(out_channels))
        if activation is not None:
            block.append(getattr(nn, activation)())
        self.block = nn.Sequential(*block)

    def forward(self, x):
        return self.block(x)


class EncodingBlock(nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.conv1 = ConvolutionalBlock(in_channels, out_channels)
        self.conv2 = ConvolutionalBlock(out_channels, out_channels)
        self.conv_residual = ConvolutionalBlock(in_channels, out_channels, normalization=None, activation=None,
                                                kernel_size=1)

    def forward(self, x):
        connection = self.conv_residual(x)
        x = self.conv1(x)
        x = self.conv2(x)
        x = x + connection  # expect: AGI001
        return x


def run():
    torch.manual_seed(0)
    block = EncodingBlock(3, 4)
    out = block(torch.randn(2, 3, 8, 8))
    out.mean().backward()
    return out


if __name__ == "__main__":
    print(run())
