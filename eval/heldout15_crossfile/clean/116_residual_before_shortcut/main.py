# Source: https://github.com/pytorch/pytorch/issues/15428 (the reporter's other order: with `resd = self.residual(x)` run before the shortcut, the in-place first ReLU no longer breaks backward)
# Unit kind: cross-file
# Look-alike of hazard/009
import torch
import torch.nn as nn

from block import Block

torch.manual_seed(0)
model = nn.Sequential(nn.Conv2d(3, 4, 3, padding=1), Block(4, 8, stride=2))
out = model(torch.randn(2, 3, 8, 8))
out.mean().backward()
print("ok", tuple(out.shape))
