# Source: https://github.com/argusswift/YOLOv4-pytorch/issues/247 (the fix: out += residual -> out = out + residual in CSPDarknet53; the in-place ReLU that follows the add is harmless, add saves nothing)
# Unit kind: cross-file
# Look-alike of hazard/002
import torch

from csp import CSPBlock

torch.manual_seed(0)
block = CSPBlock(4, activate="relu")
x = torch.randn(2, 4, 6, 6)
y = block(x)
y.mean().backward()
print("ok", tuple(y.shape))
