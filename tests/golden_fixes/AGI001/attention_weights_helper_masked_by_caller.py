"""An attention block computes its weights in a helper method (softmax of the scaled scores) and the
forward pass then drops attention to padded keys with ``masked_fill_`` on those weights. Softmax saved its
output for backward, so the in-place fill makes backward raise."""
import math

import torch
from torch import nn


class PaddedSelfAttention(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.qkv = nn.Linear(dim, 3 * dim)
        self.out = nn.Linear(dim, dim)
        self.scale = 1.0 / math.sqrt(dim)

    def attention_weights(self, q, k):
        return torch.softmax(q @ k.transpose(-2, -1) * self.scale, dim=-1)

    def forward(self, x, key_padding):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        weights = self.attention_weights(q, k)
        weights = weights.masked_fill(key_padding[:, None, :], 0.0)  # expect: AGI001
        return self.out(weights @ v)


def run():
    torch.manual_seed(0)
    block = PaddedSelfAttention(8)
    x = torch.randn(2, 5, 8)
    key_padding = torch.zeros(2, 5, dtype=torch.bool)
    key_padding[:, -1] = True
    out = block(x, key_padding)
    out.sum().backward()
    return out


if __name__ == "__main__":
    print(run())
