# Source: https://github.com/linkedin/Liger-Kernel/issues/254 (linkedin/Liger-Kernel#254: "it might be better to just do it out-of-place"); the requires_grad guard mirrors idiap/fast-transformers PR #10's fallback to the out-of-place path when gradients are needed
# Unit kind: cross-file
# Look-alike of hazard/032: the gate in kernels/gating.py checks `x.requires_grad` and
# takes the out-of-place branch for the Exponential output; the in-place branch only
# runs in the no-grad evaluation pass.
import torch
import torch.nn as nn

from kernels import exponential, gated_

torch.manual_seed(0)

proj = nn.Linear(4, 8)
x = proj(torch.randn(3, 4))
y = gated_(exponential(x), x)
y.sum().backward()
with torch.no_grad():
    z = gated_(exponential(proj(torch.randn(3, 4))), torch.zeros(3, 8))
print(z.shape)
