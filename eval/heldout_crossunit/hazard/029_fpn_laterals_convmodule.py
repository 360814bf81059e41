# Source: lyongo/NWPU-MOC#4 (FPN_Head.py: laterals[i - 1] += F.interpolate(...) -> "output 0 of
# ReluBackward0 ... is at version 1"), and open-mmlab/mmdetection PR #7175 (remove the in-place
# addition in FPN).
# Unit kind: class -- ConvModule (conv + ReLU) produces the laterals, FPN adds into them.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class ConvModule(nn.Module):
    def __init__(self, cin, cout, k):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, k, padding=k // 2)
        self.act = nn.ReLU()

    def forward(self, x):
        return self.act(self.conv(x))


class FPN(nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.lateral_convs = nn.ModuleList([ConvModule(c, out_channels, 1) for c in in_channels])
        self.fpn_convs = nn.ModuleList([ConvModule(out_channels, out_channels, 3) for _ in in_channels])

    def forward(self, inputs):
        laterals = [conv(inputs[i]) for i, conv in enumerate(self.lateral_convs)]
        for i in range(len(laterals) - 1, 0, -1):
            prev_shape = laterals[i - 1].shape[2:]
            laterals[i - 1] += F.interpolate(laterals[i], size=prev_shape, mode="nearest")  # culprit
        return [self.fpn_convs[i](laterals[i]) for i in range(len(laterals))]


feats = [torch.randn(1, 4, 8, 8), torch.randn(1, 8, 4, 4), torch.randn(1, 16, 2, 2)]
outs = FPN([4, 8, 16], 6)(feats)
sum(o.sum() for o in outs).backward()
print("done")
