# Source: https://github.com/mli0603/stereo-transformer/issues/61 (mli0603/stereo-transformer#61 "problem about RELU inplace": module/sttr.py's _relu_inplace() "make all ReLU inplace" loops over self.modules(); fixed in 44703b0 to target nn.ReLU)
# Unit kind: cross-class
# The top model's _relu_inplace() pass flips every ReLU submodule to in-place; the
# transformer's projection saves a (transposed) view of the backbone features, and the
# regression head's first ReLU then rewrites those features.
import torch
import torch.nn as nn

torch.manual_seed(0)


class Backbone(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3, padding=1)

    def forward(self, x):
        return self.conv(x)


class Transformer(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(4, 4)

    def forward(self, feat):
        return self.proj(feat.flatten(2).transpose(1, 2))


class RegressionHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.block = nn.Sequential(nn.ReLU(), nn.Conv2d(4, 1, 3, padding=1))

    def forward(self, feat):
        return self.block(feat)


class STTR(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = Backbone()
        self.transformer = Transformer()
        self.regression_head = RegressionHead()
        self._relu_inplace()

    def _relu_inplace(self):
        """make all ReLU inplace"""
        for m in self.modules():
            if isinstance(m, nn.ReLU):
                m.inplace = True  # culprit

    def forward(self, x):
        feat = self.backbone(x)
        attn = self.transformer(feat)
        disp = self.regression_head(feat)
        return attn.mean() + disp.mean()


STTR()(torch.randn(1, 3, 4, 4)).backward()
print("done")
