# Source: https://github.com/pytorch/pytorch/issues/15428 (the first layer of self.residual modifies x in place after self.shortcut(x) used it; "remove inplace=True and your code will work")
# Unit kind: cross-file
import torch
import torch.nn as nn

from block import Block

torch.manual_seed(0)
model = nn.Sequential(nn.Conv2d(3, 4, 3, padding=1), Block(4, 8, stride=2))
out = model(torch.randn(2, 3, 8, 8))
out.mean().backward()
print("ok", tuple(out.shape))
