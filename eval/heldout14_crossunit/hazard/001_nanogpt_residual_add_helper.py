# Source: https://github.com/karpathy/nanoGPT/pull/72 (karpathy/nanoGPT PR #72 "replace copy add with inplace add in the Block"; reviewer: it raises "one of the variables needed for gradient computation has been modified by an inplace operation")
# Unit kind: cross-function
# The attention branch reads x through LayerNorm (which saves x); a shared residual
# helper then adds the branch output into x in place.
import torch
import torch.nn as nn

torch.manual_seed(0)


def residual_add(x, branch):
    x += branch  # culprit
    return x


def attn_branch(ln, proj, x):
    return proj(ln(x))


def block_forward(ln, proj, x):
    h = attn_branch(ln, proj, x)
    return residual_add(x, h)


emb = nn.Embedding(10, 8)
ln = nn.LayerNorm(8)
proj = nn.Linear(8, 8)
x = emb(torch.tensor([[1, 2, 3]]))
out = block_forward(ln, proj, x)
out.pow(2).mean().backward()
print("done")
