# Source: NVlabs/FUNIT#23 ("This error can be resolved by setting inplace=False in nn.ReLU and
# nn.LeakyReLU in blocks.py").
# Clean look-alike of hazard/039.
# Unit kind: class.
import torch
import torch.nn as nn

torch.manual_seed(0)


class Conv2dBlock(nn.Module):
    def __init__(self, cin, cout, k, pad, activation_first=True):
        super().__init__()
        self.pad = nn.ZeroPad2d(pad)
        self.conv = nn.Conv2d(cin, cout, k)
        self.activation = nn.LeakyReLU(0.2, inplace=False)
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
