# Source: https://github.com/linkedin/Liger-Kernel/issues/254 (linkedin/Liger-Kernel#254 "Are you even allowed to do these ops inplace?": a custom autograd Function Exponential saves its output for backward, and a following op modifies that tensor in place)
# Unit kind: cross-file
# The kernels package's Exponential (kernels/exp_fn.py) saves its output; the package's
# memory-saving gate (kernels/gating.py, imported relatively) scales that output in place.
import torch
import torch.nn as nn

from kernels import exponential, gated_

torch.manual_seed(0)

proj = nn.Linear(4, 8)
x = proj(torch.randn(3, 4))
x_exp = exponential(x)
y = gated_(x_exp, x)
y.sum().backward()
print("done")
