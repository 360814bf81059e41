# Source: https://github.com/NX-AI/xlstm/pull/82 (NX-AI/xlstm PR #82 "fix(conv1d): prevent gradient error by removing in-place ops": the in-place update of conv_state in conv1d_step (.copy_() and [..., -1:, :] = x) breaks gradient computation through time)
# Unit kind: cross-file
# blocks.py's step convolves the state window (the product with the kernel saves it);
# on the next step, ops.py's state update shifts that same window in place; main.py
# drives the recurrence.
import torch
import torch.nn as nn

from blocks import CausalConv1dStep

torch.manual_seed(0)

proj = nn.Linear(3, 4)
conv = CausalConv1dStep(features=4, kernel_size=3)
state = conv.empty_state(batch=2, features=4)
outs = []
for t in range(3):
    x = proj(torch.randn(2, 1, 3))
    y, state = conv.step(x, state)
    outs.append(y)
torch.stack(outs).sum().backward()
print("done")
