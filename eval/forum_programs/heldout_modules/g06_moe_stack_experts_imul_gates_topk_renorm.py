# Mixture of experts: top-k renormalisation in place, stacked expert outputs scaled in place by the gates
import torch
import torch.nn as nn
import torch.nn.functional as F


class TopKMoE(nn.Module):
    def __init__(self, d, n_exp=4, k=2):
        super().__init__()
        self.router = nn.Linear(d, n_exp)
        self.experts = nn.ModuleList(nn.Linear(d, d) for _ in range(n_exp))
        self.k = k

    def forward(self, x):
        probs = F.softmax(self.router(x), dim=-1)
        topv, topi = probs.topk(self.k, dim=-1)
        topv /= topv.sum(-1, keepdim=True)
        gates = torch.zeros_like(probs).scatter(-1, topi, topv)
        expert_out = torch.stack([e(x) for e in self.experts], dim=1)
        expert_out *= gates.unsqueeze(-1)
        aux = probs.mean(0).pow(2).sum()
        return expert_out.sum(1), aux


torch.manual_seed(0)
moe = TopKMoE(6)
y, aux = moe(torch.randn(5, 6))
(y.sum() + aux).backward()
print(moe.router.weight.grad.norm())
