# Source: https://github.com/OpenNMT/OpenNMT-py/issues/2303 (RuntimeError: Output 0 of SplitBackward0 is a view and is being modified inplace ... a function that returns multiple views)
# Unit kind: cross-file
import torch

from attention import SelfAttention

torch.manual_seed(0)
attn = SelfAttention(8)
out = attn(torch.randn(2, 5, 8))
out.mean().backward()
print("ok", tuple(out.shape))
