# Source: https://github.com/lucidrains/DALLE-pytorch/issues/62 (out-of-place masked filled: attention.py used masked_fill_ in place; replaced by masked_fill)
# Unit kind: cross-file
import torch

from attention import Attention

torch.manual_seed(0)
attn = Attention(8)
x = torch.randn(2, 5, 8)
key_mask = torch.tensor([[1, 1, 1, 0, 0], [1, 1, 1, 1, 0]], dtype=torch.bool)
out = attn(x, key_mask)
out.mean().backward()
print("ok", tuple(out.shape))
