# Source: https://github.com/karpathy/nanoGPT/pull/72 (karpathy/nanoGPT PR #72; the Block keeps the copy add x = x + self.attn(self.ln_1(x)))
# Unit kind: cross-function
# Look-alike of hazard/001: the residual helper adds out of place, so the tensor the
# LayerNorm saved is never written.
import torch
import torch.nn as nn

torch.manual_seed(0)


def residual_add(x, branch):
    x = x + branch
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
