# Source: OpenNMT/OpenNMT-py#2303 and TeenLucifer/grpo_reproduce#11 ("Output 0 of
# SplitBackward0 is a view and is being modified inplace").
# Unit kind: function -- the query is scaled in place by a helper after qkv.split().
import torch
import torch.nn as nn

torch.manual_seed(0)
qkv_proj = nn.Linear(8, 24)


def scale_query(q, head_dim):
    q *= head_dim ** -0.5  # culprit
    return q


def attention(x):
    q, k, v = qkv_proj(x).split(8, dim=-1)
    q = scale_query(q, 8)
    w = torch.softmax(q @ k.transpose(-1, -2), dim=-1)
    return w @ v


attention(torch.randn(2, 3, 8)).sum().backward()
print("done")
