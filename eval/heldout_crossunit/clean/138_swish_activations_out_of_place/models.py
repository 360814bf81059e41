import torch
import torch.nn as nn

from common import ActFirstDWConv


class TwoPath(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.stem = nn.Conv2d(3, c, 3, padding=1)
        self.pw = nn.Conv2d(c, c, 1)
        self.dw = ActFirstDWConv(c)

    def forward(self, x):
        x = self.stem(x)
        return torch.cat([self.pw(x), self.dw(x)], 1)
