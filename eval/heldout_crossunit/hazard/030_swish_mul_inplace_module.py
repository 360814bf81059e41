# Source: ultralytics/yolov3#441 ("Inplace operation torch.mul_() in Swish class also changes its
# input": class Swish: forward returns x.mul_(torch.sigmoid(x))).
# Unit kind: class -- the Swish module rewrites a tensor that the sibling projection saved.
import torch
import torch.nn as nn

torch.manual_seed(0)


class Swish(nn.Module):
    def forward(self, x):
        return x.mul_(torch.sigmoid(x))  # culprit


class CSPBlock(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.cv0 = nn.Conv2d(3, c, 1)
        self.cv1 = nn.Conv2d(c, c, 1)
        self.m = nn.Sequential(Swish(), nn.Conv2d(c, c, 3, padding=1))

    def forward(self, img):
        x = self.cv0(img)
        y1 = self.cv1(x)
        y2 = self.m(x)
        return torch.cat([y1, y2], 1)


CSPBlock(4)(torch.randn(1, 3, 5, 5)).sum().backward()
print("done")
