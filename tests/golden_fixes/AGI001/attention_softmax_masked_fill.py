"""Attention that masks the *weights* after the softmax in place: softmax saved its output, so
``masked_fill_`` on it breaks backward (masking the scores before the softmax would be fine)."""
import math

import torch
from torch import nn


class Attention(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.qkv = nn.Linear(dim, 3 * dim)
        self.dim = dim

    def forward(self, x, pad):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.dim)
        weights = torch.softmax(scores, dim=-1)
        weights = weights.masked_fill(pad[:, None, :], 0.0)  # expect: AGI001
        return weights @ v


def run():
    torch.manual_seed(0)
    attn = Attention(4)
    x = torch.randn(2, 3, 4)
    pad = torch.tensor([[False, False, True], [False, False, False]])
    out = attn(x, pad)
    out.sum().backward()
    return out


if __name__ == "__main__":
    print(run())
