# Switch-style MoE: tokens over an expert's capacity are dropped by zeroing their gate, after the combine
import torch
import torch.nn as nn


class SwitchMoE(nn.Module):
    def __init__(self, d, n_exp=3, capacity=2):
        super().__init__()
        self.router = nn.Linear(d, n_exp)
        self.experts = nn.ModuleList(nn.Linear(d, d) for _ in range(n_exp))
        self.capacity = capacity

    def _enforce_capacity(self, gates, choice):
        for e in range(gates.shape[1]):
            idx = (choice == e).nonzero().flatten()
            if idx.numel() > self.capacity:
                gates[idx[self.capacity:], e] = 0.0  # culprit
        return gates

    def forward(self, x):
        gates = torch.softmax(self.router(x), dim=-1)
        choice = gates.argmax(-1)
        outs = torch.stack([e(x) for e in self.experts], 1)
        y = (outs * gates.unsqueeze(-1)).sum(1)
        gates = self._enforce_capacity(gates, choice)
        load = gates.sum(0)
        return y, load


torch.manual_seed(0)
moe = SwitchMoE(4)
y, load = moe(torch.randn(8, 4))
y.pow(2).mean().backward()
print(moe.router.weight.grad.norm(), load)
