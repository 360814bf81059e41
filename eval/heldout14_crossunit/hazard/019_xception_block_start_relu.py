# Source: https://github.com/mapillary/inplace_abn/issues/40 (mapillary/inplace_abn#40: an Xception net converted to InPlaceABN, whose Block starts with `self.relu = nn.ReLU(inplace=True)` (start_with_relu), fails with "one of the variables needed for gradient computation has been modified by an inplace operation")
# Unit kind: cross-class
# The entry stem ends in an in-place LeakyReLU norm-act (like InPlaceABN, it saves its
# output); the next Block starts with its own in-place ReLU on that output.
import torch
import torch.nn as nn

torch.manual_seed(0)


class NormAct(nn.Module):
    def __init__(self, ch):
        super().__init__()
        self.bn = nn.BatchNorm2d(ch)
        self.act = nn.LeakyReLU(0.01, inplace=True)

    def forward(self, x):
        return self.act(self.bn(x))


class Stem(nn.Module):
    def __init__(self, ch):
        super().__init__()
        self.conv = nn.Conv2d(3, ch, 3, padding=1, bias=False)
        self.norm = NormAct(ch)

    def forward(self, x):
        return self.norm(self.conv(x))


class Block(nn.Module):
    def __init__(self, inplanes, planes, start_with_relu=True):
        super().__init__()
        self.skip = nn.Conv2d(inplanes, planes, 1, bias=False)
        self.relu = nn.ReLU(inplace=True)  # culprit
        rep = [self.relu] if start_with_relu else []
        rep += [nn.Conv2d(inplanes, planes, 3, padding=1, bias=False), nn.BatchNorm2d(planes)]
        self.rep = nn.Sequential(*rep)

    def forward(self, inp):
        x = self.rep(inp)
        return x + self.skip(inp)


net = nn.Sequential(Stem(4), Block(4, 8))
net(torch.randn(2, 3, 6, 6)).mean().backward()
print("done")
