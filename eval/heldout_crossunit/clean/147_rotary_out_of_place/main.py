# Source: OpenNMT/OpenNMT-py#2303 ("replace the inplace operation by an out-of-place one").
# Clean look-alike of hazard/064.
# Unit kind: file.
import torch

from attention import SelfAttention

torch.manual_seed(0)
T, d = 3, 4
pos = torch.arange(T)[:, None].float()
cos, sin = torch.cos(pos).expand(T, d), torch.sin(pos).expand(T, d)
SelfAttention(d)(torch.randn(2, T, d), cos, sin).sum().backward()
print("done")
