# Source: https://github.com/mapillary/inplace_abn/issues/40 (mapillary/inplace_abn#40: the reporter's code only works when the layer before the Block is a normal nn.BatchNorm2d)
# Unit kind: cross-class
# Look-alike of hazard/019: the stem ends in a plain BatchNorm2d, which saves its input,
# not its output, so the Block's starting in-place ReLU overwrites nothing saved.
import torch
import torch.nn as nn

torch.manual_seed(0)


class Stem(nn.Module):
    def __init__(self, ch):
        super().__init__()
        self.conv = nn.Conv2d(3, ch, 3, padding=1, bias=False)
        self.bn = nn.BatchNorm2d(ch)

    def forward(self, x):
        return self.bn(self.conv(x))


class Block(nn.Module):
    def __init__(self, inplanes, planes, start_with_relu=True):
        super().__init__()
        self.skip = nn.Conv2d(inplanes, planes, 1, bias=False)
        self.relu = nn.ReLU(inplace=True)
        rep = [self.relu] if start_with_relu else []
        rep += [nn.Conv2d(inplanes, planes, 3, padding=1, bias=False), nn.BatchNorm2d(planes)]
        self.rep = nn.Sequential(*rep)

    def forward(self, inp):
        x = self.rep(inp)
        return x + self.skip(inp)


net = nn.Sequential(Stem(4), Block(4, 8))
net(torch.randn(2, 3, 6, 6)).mean().backward()
print("done")
