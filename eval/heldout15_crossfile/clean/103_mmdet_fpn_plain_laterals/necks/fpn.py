import torch.nn as nn
import torch.nn.functional as F

from .conv_module import ConvModule


class FPN(nn.Module):
    def __init__(self, in_channels, out_channels, act_cfg=None):
        super().__init__()
        self.lateral_convs = nn.ModuleList(
            ConvModule(c, out_channels, 1, act_cfg=act_cfg) for c in in_channels)
        self.fpn_convs = nn.ModuleList(
            ConvModule(out_channels, out_channels, 3, padding=1) for _ in in_channels)

    def forward(self, inputs):
        laterals = [conv(x) for conv, x in zip(self.lateral_convs, inputs)]
        for i in range(len(laterals) - 1, 0, -1):
            laterals[i - 1] += F.interpolate(laterals[i], scale_factor=2, mode="nearest")
        return [conv(lat) for conv, lat in zip(self.fpn_convs, laterals)]
