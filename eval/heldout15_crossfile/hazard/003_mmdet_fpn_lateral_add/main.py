# Source: https://github.com/open-mmlab/mmdetection/pull/7175 (FPN's laterals[i - 1] += F.interpolate(laterals[i], ...) raises "modified by an inplace operation"; replaced by a normal addition)
# Unit kind: cross-file
import torch

from necks.fpn import FPN

torch.manual_seed(0)
neck = FPN([4, 8, 16], 8, act_cfg=dict(type="ReLU"))
feats = [torch.randn(1, 4, 16, 16), torch.randn(1, 8, 8, 8), torch.randn(1, 16, 4, 4)]
outs = neck(feats)
sum(o.mean() for o in outs).backward()
print([tuple(o.shape) for o in outs])
