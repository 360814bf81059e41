# Source: https://github.com/NVlabs/FUNIT/issues/23 (output 0 of ConstantPadNdBackward modified in place; resolved by inplace=False on the nn.ReLU / nn.LeakyReLU in blocks.py)
# Unit kind: cross-file
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
        feat = self.stem(x)
        energy = feat.pow(2).mean()     # pow saves feat
        return self.block(feat), energy


enc = ContentEncoder()
out, energy = enc(torch.randn(2, 3, 8, 8))
(out.mean() + 0.1 * energy).backward()
print("ok", float(energy))
