"""A module-level attention helper: ``q @ k.transpose(-1, -2)`` saves ``q`` (and a view of ``k``) for
backward, so the caller's in-place scaling of the query after the call breaks backward -- the save is
made inside the helper, the write in the caller."""
import math

import torch
import torch.nn as nn


def attention_weights(q, k):
    scores = q @ k.transpose(-1, -2) / math.sqrt(q.size(-1))
    return torch.softmax(scores, dim=-1)


class SelfAttention(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.query = nn.Linear(dim, dim)
        self.key = nn.Linear(dim, dim)
        self.value = nn.Linear(dim, dim)
        self.out = nn.Linear(dim, dim)

    def forward(self, x):
        q, k, v = self.query(x), self.key(x), self.value(x)
        weights = attention_weights(q, k)
        q = q.mul(0.5)  # expect: AGI001
        return self.out(weights @ v + q)


def run():
    torch.manual_seed(0)
    layer = SelfAttention(8)
    out = layer(torch.randn(2, 5, 8))
    out.sum().backward()
    return out


if __name__ == "__main__":
    print(run().shape)
