# Source: OpenNMT/OpenNMT-py#2303 ("You should replace the inplace operation by an out-of-place one").
# Clean look-alike of hazard/016: the split query is scaled out of place.
# Unit kind: function.
import torch
import torch.nn as nn

torch.manual_seed(0)
qkv_proj = nn.Linear(8, 24)


def scale_query(q, head_dim):
    q = q * head_dim ** -0.5
    return q


def attention(x):
    q, k, v = qkv_proj(x).split(8, dim=-1)
    q = scale_query(q, 8)
    w = torch.softmax(q @ k.transpose(-1, -2), dim=-1)
    return w @ v


attention(torch.randn(2, 3, 8)).sum().backward()
print("done")
