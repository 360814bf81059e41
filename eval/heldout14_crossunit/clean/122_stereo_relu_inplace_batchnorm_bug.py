# Source: https://github.com/mli0603/stereo-transformer/issues/61 (mli0603/stereo-transformer#61: the original _relu_inplace() sets `m.inplace = True` on every nn.BatchNorm2d instead of nn.ReLU)
# Unit kind: cross-class
# Look-alike of hazard/025, as the code stood before the fix: the pass sets an
# `inplace` attribute on BatchNorm2d modules, which BatchNorm ignores, so every ReLU
# stays out of place.
import torch
import torch.nn as nn

torch.manual_seed(0)


class Backbone(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3, padding=1)
        self.bn = nn.BatchNorm2d(4)

    def forward(self, x):
        return self.bn(self.conv(x))


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
            if isinstance(m, nn.BatchNorm2d):
                m.inplace = True

    def forward(self, x):
        feat = self.backbone(x)
        attn = self.transformer(feat)
        disp = self.regression_head(feat)
        return attn.mean() + disp.mean()


STTR()(torch.randn(1, 3, 4, 4)).backward()
print("done")
