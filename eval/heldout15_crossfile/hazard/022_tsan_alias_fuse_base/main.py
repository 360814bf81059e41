# Source: https://github.com/Jee-King/TSAN/issues/3 (RuntimeError: ... modified by an inplace operation; TSAN/Train/model/tsan.py line 103 `out = x` --> `out = x.clone()`)
# Unit kind: cross-file
import torch

from tsan import TSAN

torch.manual_seed(0)
net = TSAN(4)
y = net(torch.randn(2, 4, 6, 6))
y.mean().backward()
print("ok", tuple(y.shape))
