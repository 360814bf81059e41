# T5-style relative position bias: integer bucket maths in place, bias added in place to the raw scores
import math
import torch
import torch.nn as nn


def relative_bucket(rel, num_buckets=8, max_distance=16):
    ret = (rel > 0).long() * (num_buckets // 2)
    n = rel.abs()
    n.clamp_(min=1)
    max_exact = num_buckets // 4
    large = max_exact + (torch.log(n.float() / max_exact) / math.log(max_distance / max_exact)
                         * (num_buckets // 2 - max_exact)).long()
    large.clamp_(max=num_buckets // 2 - 1)
    ret += torch.where(n < max_exact, n, large)
    return ret


class RelAttention(nn.Module):
    def __init__(self, d, heads=2):
        super().__init__()
        self.h = heads
        self.q = nn.Linear(d, d)
        self.k = nn.Linear(d, d)
        self.rel = nn.Embedding(8, heads)

    def forward(self, x):
        B, T, D = x.shape
        q = self.q(x).view(B, T, self.h, -1).transpose(1, 2)
        k = self.k(x).view(B, T, self.h, -1).transpose(1, 2)
        pos = torch.arange(T)
        bias = self.rel(relative_bucket(pos[None, :] - pos[:, None])).permute(2, 0, 1)
        scores = torch.matmul(q, k.transpose(-1, -2))
        scores += bias
        scores *= 1.0 / math.sqrt(D // self.h)
        return scores.softmax(-1)


torch.manual_seed(0)
m = RelAttention(8)
out = m(torch.randn(2, 6, 8))
(out * torch.randn_like(out)).sum().backward()
print(m.rel.weight.grad.abs().sum())
