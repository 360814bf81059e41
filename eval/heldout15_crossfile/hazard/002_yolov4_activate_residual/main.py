# Source: https://github.com/argusswift/YOLOv4-pytorch/issues/247 (activate='relu' in CSPDarknet53 -> output 0 of ReluBackward0 modified; fixed by out += residual -> out = out + residual)
# Unit kind: cross-file
import torch

from csp import CSPBlock

torch.manual_seed(0)
block = CSPBlock(4, activate="relu")
x = torch.randn(2, 4, 6, 6)
y = block(x)
y.mean().backward()
print("ok", tuple(y.shape))
