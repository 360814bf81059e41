# Source: https://github.com/NVlabs/FUNIT/issues/23 (Conv2dBlock with an in-place LeakyReLU in blocks.py; here the statistic is taken after the block has run, so it saves the already-activated tensor)
# Unit kind: cross-file
# Look-alike of hazard/004
import torch
import torch.nn as nn

from blocks import Conv2dBlock

torch.manual_seed(0)


class ContentEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Conv2d(3, 6, 3, padding=1)
        self.block = Conv2dBlock(6, 6, 3, 1, activation="lrelu", activation_first=True)

    def forward(self, x):
        feat = self.stem(x)             # conv does not save its output
        out = self.block(feat)          # activates feat in place first
        energy = feat.pow(2).mean()     # pow saves feat as it is now
        return out, energy


enc = ContentEncoder()
out, energy = enc(torch.randn(2, 3, 8, 8))
(out.mean() + 0.1 * energy).backward()
print("ok", float(energy))
