# Source: https://github.com/RangiLyu/nanodet/pull/493 (RangiLyu/nanodet PR #493 "Fix RuntimeError due to inplace operation (fpn.py)": with activation LeakyReLU, the in-place update of `laterals` in FPN.forward fails with "output 0 of LeakyReluBackward1, is at version 2; expected version 1")
# Unit kind: cross-class
# The lateral ConvModule ends in an in-place LeakyReLU taken from an activation
# registry (the in-place LeakyReLU saves its result); the FPN's top-down pass adds the
# upsampled coarser level into each lateral in place.
from functools import partial

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

ACTIVATIONS = {
    "ReLU": partial(nn.ReLU, inplace=True),
    "LeakyReLU": partial(nn.LeakyReLU, negative_slope=0.1, inplace=True),
}


class ConvModule(nn.Module):
    def __init__(self, cin, cout, k=1, activation="ReLU"):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, k, padding=k // 2, bias=False)
        self.bn = nn.BatchNorm2d(cout)
        self.act = ACTIVATIONS[activation]()

    def forward(self, x):
        return self.act(self.bn(self.conv(x)))


class FPN(nn.Module):
    def __init__(self, in_channels, out_channels, activation="LeakyReLU"):
        super().__init__()
        self.lateral_convs = nn.ModuleList(ConvModule(c, out_channels, 1, activation) for c in in_channels)

    def forward(self, inputs):
        laterals = [conv(x) for conv, x in zip(self.lateral_convs, inputs)]
        for i in range(len(laterals) - 1, 0, -1):
            laterals[i - 1] += F.interpolate(laterals[i], scale_factor=2, mode="bilinear")  # culprit
        return laterals


fpn = FPN([4, 6, 8], 4)
feats = [torch.randn(1, 4, 8, 8), torch.randn(1, 6, 4, 4), torch.randn(1, 8, 2, 2)]
sum(o.mean() for o in fpn(feats)).backward()
print("done")
