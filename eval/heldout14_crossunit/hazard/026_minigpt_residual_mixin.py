# Source: https://lynx-cortex.pages.dev/phase-25-pytorch-internals/break/00-break-in-place-op-autograd/ (lynx-cortex "Break -- In-place op on a tensor that requires grad": replacing h = h + self.attn(self.ln1(h)) by h.add_(self.attn(self.ln1(h))) raises "modified by an inplace operation ... output 0 of NativeLayerNormBackward")
# Unit kind: cross-class
# A residual mixin provides the in-place residual add; the transformer Block that
# inherits it feeds h through its LayerNorm (saving h) before calling the mixin.
import torch
import torch.nn as nn

torch.manual_seed(0)


class ResidualMixin:
    def residual_(self, h, branch):
        return h.add_(branch)  # culprit


class Block(ResidualMixin, nn.Module):
    def __init__(self, d):
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.attn = nn.Linear(d, d)
        self.ffn = nn.Sequential(nn.Linear(d, 2 * d), nn.GELU(), nn.Linear(2 * d, d))

    def forward(self, h):
        h = self.residual_(h, self.attn(self.ln1(h)))
        h = self.residual_(h, self.ffn(self.ln2(h)))
        return h


tok = nn.Embedding(16, 8)
block = Block(8)
block(tok(torch.tensor([[1, 5, 7]]))).sum().backward()
print("done")
