# Source: open-mmlab/mmdetection PR #2157 ("Fix FPN upscale": laterals[i - 1] += F.interpolate(
# laterals[i], size=target_shape, mode='nearest')) and PR #7175 (remove the in-place addition,
# which raises "modified by an inplace operation" when laterals come from an activated ConvModule).
# Unit kind: file -- nets/conv.py (ReLU saves its output), nets/necks.py (in-place add), relative
# imports inside the nets package.
import torch

from nets import FPN

torch.manual_seed(0)
neck = FPN([4, 8, 16], 4)
outs = neck([torch.randn(2, 4, 8, 8), torch.randn(2, 8, 4, 4), torch.randn(2, 16, 2, 3)])
sum(o.sum() for o in outs).backward()
print("done")
