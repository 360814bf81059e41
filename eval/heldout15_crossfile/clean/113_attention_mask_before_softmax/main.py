# Source: https://github.com/lucidrains/DALLE-pytorch/issues/62 (masked_fill_ in attention.py; here it fills the raw scores before the softmax, and the scaled matmul output is saved by nothing)
# Unit kind: cross-file
# Look-alike of hazard/020
import torch

from attention import Attention

torch.manual_seed(0)
attn = Attention(8)
x = torch.randn(2, 5, 8)
key_mask = torch.tensor([[1, 1, 1, 0, 0], [1, 1, 1, 1, 0]], dtype=torch.bool)
out = attn(x, key_mask)
out.mean().backward()
print("ok", tuple(out.shape))
