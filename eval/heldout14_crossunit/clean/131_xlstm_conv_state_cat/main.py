# Source: https://github.com/NX-AI/xlstm/pull/82 (NX-AI/xlstm PR #82: "conv_state is safely updated by creating a new tensor")
# Unit kind: cross-file
# Look-alike of hazard/035: ops.py builds each step's state window with torch.cat, so the
# window that blocks.py's convolution saved on an earlier step is never written.
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
