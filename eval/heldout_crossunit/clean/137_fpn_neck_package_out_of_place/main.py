# Source: open-mmlab/mmdetection PR #7175 ("Remove the inplace addition in FPN").
# Clean look-alike of hazard/055: same package layout, the top-down add is out of place.
# Unit kind: file.
import torch

from nets import FPN

torch.manual_seed(0)
neck = FPN([4, 8, 16], 4)
outs = neck([torch.randn(2, 4, 8, 8), torch.randn(2, 8, 4, 4), torch.randn(2, 16, 2, 3)])
sum(o.sum() for o in outs).backward()
print("done")
