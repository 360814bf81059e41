"""An FPN neck whose lateral convolutions end in ReLU: each ``laterals[i]`` is a ReLU output, which the
ReLU saved for backward, and the top-down pass adds the upsampled coarser level to it in place
(``laterals[i - 1] += ...``: the tensor in that list slot is written). Re-created from the mmdet/nanodet
reports (open-mmlab/mmdetection#9450)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class FPN(nn.Module):
    def __init__(self, in_channels=(4, 8, 16), out_channels=8):
        super().__init__()
        self.lateral_convs = nn.ModuleList(nn.Conv2d(c, out_channels, 1) for c in in_channels)

    def forward(self, inputs):
        laterals = [F.relu(conv(x)) for conv, x in zip(self.lateral_convs, inputs)]
        for i in range(len(laterals) - 1, 0, -1):
            up = F.interpolate(laterals[i], size=laterals[i - 1].shape[2:], mode="nearest")
            laterals[i - 1] = laterals[i - 1] + up  # expect: AGI001
        return laterals


def run():
    torch.manual_seed(0)
    neck = FPN()
    feats = [torch.randn(1, 4, 16, 16), torch.randn(1, 8, 8, 8), torch.randn(1, 16, 4, 4)]
    outs = neck(feats)
    sum(o.mean() for o in outs).backward()
    return tuple(outs)


if __name__ == "__main__":
    print(run())
