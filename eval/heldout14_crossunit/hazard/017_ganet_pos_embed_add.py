# Source: https://github.com/Wolfwjs/GANet/issues/20 (Wolfwjs/GANet#20: mmdet/models/necks/dcn_fpn.py line 118 `x += pos` should be `x = x + pos`, otherwise "one of the variables needed for gradient computation has been modified by an inplace operation")
# Unit kind: cross-class
# The conv block ends in ReLU (which saves its result); the FPN level adds a sine
# position embedding into the block's output in place.
import math

import torch
import torch.nn as nn

torch.manual_seed(0)


class ConvReLU(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, 3, padding=1)
        self.act = nn.ReLU()

    def forward(self, x):
        return self.act(self.conv(x))


class PositionEmbeddingSine(nn.Module):
    def forward(self, x):
        h, w = x.shape[-2:]
        ys = torch.arange(h, dtype=x.dtype).view(1, 1, h, 1)
        xs = torch.arange(w, dtype=x.dtype).view(1, 1, 1, w)
        return torch.sin(ys / math.pi) + torch.cos(xs / math.pi)


class DeformFPNLevel(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.conv = ConvReLU(cin, cout)
        self.pos = PositionEmbeddingSine()
        self.out = nn.Conv2d(cout, cout, 1)

    def forward(self, x):
        x = self.conv(x)
        pos = self.pos(x)
        x += pos  # culprit
        return self.out(x)


level = DeformFPNLevel(3, 4)
level(torch.randn(2, 3, 5, 5)).sum().backward()
print("done")
