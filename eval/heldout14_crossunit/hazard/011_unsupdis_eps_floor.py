# Source: https://github.com/kail8/UnsupDIS-pytorch/issues/26 (kail8/UnsupDIS-pytorch#26: `t_s_flat[t_s_flat.abs() < eps] = eps` -> "Output 0 of ViewBackward is a view and is being modified inplace. This view is an output of a function that returns multiple views"; fix: blend with a detached mask)
# Unit kind: cross-function
# The solver splits its prediction into scale and shift with chunk; a numerically-safe
# division helper floors tiny values of the (flattened) scale in place.
import torch
import torch.nn as nn

torch.manual_seed(0)
EPS = 0.3


def predict(net, x):
    scale, shift = net(x).view(2, -1).chunk(2, dim=0)
    return scale, shift


def safe_floor(t_s):
    t_s_flat = t_s.view(-1)
    t_s_flat[t_s_flat.abs() < EPS] = EPS  # culprit
    return t_s_flat.view_as(t_s)


net = nn.Linear(3, 8)
scale, shift = predict(net, torch.randn(3))
out = shift / safe_floor(scale)
out.sum().backward()
print("done")
