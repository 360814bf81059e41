import torch.nn as nn


class ConvModule(nn.Module):
    """conv -> bn -> relu, like mmcv's ConvModule with act_cfg=dict(type='ReLU')."""

    def __init__(self, cin, cout, k):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, k, padding=k // 2, bias=False)
        self.bn = nn.BatchNorm2d(cout)
        self.activate = nn.ReLU()

    def forward(self, x):
        return self.activate(self.bn(self.conv(x)))
