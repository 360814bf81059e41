# Sparse attention: keep the largest weights with torch.where, then renormalise the result in place
import torch
import torch.nn as nn


class SparseAttn(nn.Module):
    def __init__(self, d, keep=2):
        super().__init__()
        self.q = nn.Linear(d, d)
        self.keep = keep

    def forward(self, x):
        p = torch.softmax(self.q(x) @ x.transpose(-1, -2), dim=-1)
        thresh = p.topk(self.keep, dim=-1).values[..., -1:]
        q = torch.where(p >= thresh, p, torch.zeros_like(p))
        q /= q.sum(-1, keepdim=True)
        return q @ x


torch.manual_seed(0)
sa = SparseAttn(4)
x = torch.randn(2, 5, 4, requires_grad=True)
sa(x).sum().backward()
print(sa.q.weight.grad.norm())
