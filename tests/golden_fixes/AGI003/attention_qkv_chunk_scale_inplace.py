"""Attention with a fused qkv projection that scales the query in place: ``chunk`` returns three views of
one tensor, and torch refuses to modify any of them in place while it requires grad."""
import torch
from torch import nn


class SelfAttention(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.qkv = nn.Linear(dim, 3 * dim)
        self.scale = dim ** -0.5

    def forward(self, x):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        q = q * self.scale  # expect: AGI003
        weights = (q @ k.transpose(-2, -1)).softmax(dim=-1)
        return weights @ v


def run():
    torch.manual_seed(0)
    out = SelfAttention(4)(torch.randn(2, 3, 4))
    out.sum().backward()
    return out


if __name__ == "__main__":
    print(run())
