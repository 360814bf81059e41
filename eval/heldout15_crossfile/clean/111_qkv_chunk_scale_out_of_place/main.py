# Source: https://github.com/OpenNMT/OpenNMT-py/issues/2303 (Output 0 of SplitBackward0 is a view and is being modified inplace; here the query scaling helper is out of place, as the message asks)
# Unit kind: cross-file
# Look-alike of hazard/016
import torch

from attention import SelfAttention

torch.manual_seed(0)
attn = SelfAttention(8)
out = attn(torch.randn(2, 5, 8))
out.mean().backward()
print("ok", tuple(out.shape))
