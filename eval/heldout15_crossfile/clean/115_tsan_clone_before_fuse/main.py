# Source: https://github.com/Jee-King/TSAN/issues/3 (the reported fix: tsan.py `out = x` --> `out = x.clone()` before the in-place fusion)
# Unit kind: cross-file
# Look-alike of hazard/022
import torch

from tsan import TSAN

torch.manual_seed(0)
net = TSAN(4)
y = net(torch.randn(2, 4, 6, 6))
y.mean().backward()
print("ok", tuple(y.shape))
