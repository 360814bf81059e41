# Source: NVlabs/FUNIT#23 ("... which is output 0 of ConstantPadNdBackward, is at version"; fixed by
# setting inplace=False in nn.ReLU / nn.LeakyReLU in blocks.py). FUNIT's ActFirstResBlock runs a
# 1x1 shortcut conv on x and an activation-first Conv2dBlock on the same x.
# Unit kind: class -- Conv2dBlock (activation first) vs. ActFirstResBlock's shortcut conv.
import torch
import torch.nn as nn

torch.manual_seed(0)


class Conv2dBlock(nn.Module):
    def __init__(self, cin, cout, k, pad, activation_first=True):
        super().__init__()
        self.pad = nn.ZeroPad2d(pad)
        self.conv = nn.Conv2d(cin, cout, k)
        self.activation = nn.LeakyReLU(0.2, inplace=True)  # culprit
        self.activation_first = activation_first

    def forward(self, x):
        if self.activation_first:
            x = self.activation(x)
            return self.conv(self.pad(x))
        return self.activation(self.conv(self.pad(x)))


class ActFirstResBlock(nn.Module):
    def __init__(self, fin, fout):
        super().__init__()
        self.conv_0 = Conv2dBlock(fin, fout, 3, 1)
        self.conv_1 = Conv2dBlock(fout, fout, 3, 1)
        self.conv_s = nn.Conv2d(fin, fout, 1, bias=False)

    def forward(self, x):
        x_s = self.conv_s(x)
        dx = self.conv_1(self.conv_0(x))
        return x_s + dx


class Head(nn.Module):
    def __init__(self):
        super().__init__()
        self.pad = nn.ZeroPad2d(1)
        self.conv = nn.Conv2d(3, 4, 3)
        self.res = ActFirstResBlock(4, 6)

    def forward(self, img):
        return self.res(self.conv(self.pad(img)))


Head()(torch.randn(1, 3, 6, 6)).sum().backward()
print("done")
