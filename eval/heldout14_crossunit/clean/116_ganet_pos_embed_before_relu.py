# Source: https://github.com/Wolfwjs/GANet/issues/20 (Wolfwjs/GANet#20: dcn_fpn.py's `x += pos`)
# Unit kind: cross-class
# Look-alike of hazard/017, with the write before the save: the FPN level adds the
# position embedding in place into the raw conv output, before the block's ReLU (the
# convolution saves its input, not its output).
import math

import torch
import torch.nn as nn

torch.manual_seed(0)


class PositionEmbeddingSine(nn.Module):
    def forward(self, x):
        h, w = x.shape[-2:]
        ys = torch.arange(h, dtype=x.dtype).view(1, 1, h, 1)
        xs = torch.arange(w, dtype=x.dtype).view(1, 1, 1, w)
        return torch.sin(ys / math.pi) + torch.cos(xs / math.pi)


class ConvThenAct(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, 3, padding=1)
        self.act = nn.ReLU()


class DeformFPNLevel(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.block = ConvThenAct(cin, cout)
        self.pos = PositionEmbeddingSine()
        self.out = nn.Conv2d(cout, cout, 1)

    def forward(self, x):
        x = self.block.conv(x)
        x += self.pos(x)
        return self.out(self.block.act(x))


DeformFPNLevel(3, 4)(torch.randn(2, 3, 5, 5)).sum().backward()
print("done")
