# Source: https://github.com/open-mmlab/mmdetection/pull/7175 (FPN's laterals[i - 1] += F.interpolate(...); with the default act_cfg=None the laterals are plain conv outputs, which conv does not save)
# Unit kind: cross-file
# Look-alike of hazard/003
import torch

from necks.fpn import FPN

torch.manual_seed(0)
neck = FPN([4, 8, 16], 8, act_cfg=None)
feats = [torch.randn(1, 4, 16, 16), torch.randn(1, 8, 8, 8), torch.randn(1, 16, 4, 4)]
outs = neck(feats)
sum(o.mean() for o in outs).backward()
print([tuple(o.shape) for o in outs])
