# Source: https://github.com/kail8/UnsupDIS-pytorch/issues/26 (kail8/UnsupDIS-pytorch#26: `t_s_flat[t_s_flat.abs() < eps] = eps` on a chunk of the prediction)
# Unit kind: cross-function
# Look-alike of hazard/011: the same in-place flooring helper on a chunk view, but
# applied to the ground-truth scale/shift targets, which never require grad.
import torch
import torch.nn as nn

torch.manual_seed(0)
EPS = 0.3


def split_targets(gt):
    scale, shift = gt.view(2, -1).chunk(2, dim=0)
    return scale, shift


def safe_floor(t_s):
    t_s_flat = t_s.view(-1)
    t_s_flat[t_s_flat.abs() < EPS] = EPS
    return t_s_flat.view_as(t_s)


net = nn.Linear(3, 4)
gt_scale, gt_shift = split_targets(torch.randn(8))
target = gt_shift / safe_floor(gt_scale)
loss = (net(torch.randn(3)) - target.view(-1)).pow(2).mean()
loss.backward()
print("done")
