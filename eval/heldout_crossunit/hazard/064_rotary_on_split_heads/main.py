# Source: OpenNMT/OpenNMT-py#2303 and TeenLucifer/grpo_reproduce#11 ("Output 0 of SplitBackward0
# is a view and is being modified inplace. This view is the output of a function that returns
# multiple views").
# Unit kind: file -- attention.py splits qkv; rotary.py rotates the query in place.
import torch

from attention import SelfAttention

torch.manual_seed(0)
T, d = 3, 4
pos = torch.arange(T)[:, None].float()
cos, sin = torch.cos(pos).expand(T, d), torch.sin(pos).expand(T, d)
SelfAttention(d)(torch.randn(2, T, d), cos, sin).sum().backward()
print("done")
