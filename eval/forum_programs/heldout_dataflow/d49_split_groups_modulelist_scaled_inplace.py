# Grouped gating: features split into groups, each group scaled in place by its own learned gate
# module from an nn.ModuleList
import torch
import torch.nn as nn


class GroupGate(nn.Module):
    def __init__(self, d, groups):
        super().__init__()
        self.proj = nn.Linear(d, d)
        self.gates = nn.ModuleList(nn.Linear(d // groups, 1) for _ in range(groups))
        self.groups = groups

    def forward(self, x):
        h = self.proj(x)
        parts = h.split(h.shape[-1] // self.groups, dim=-1)
        for part, gate in zip(parts, self.gates):
            part.mul_(torch.sigmoid(gate(part.detach())))  # culprit
        return h


torch.manual_seed(0)
m = GroupGate(6, 3)
m(torch.randn(4, 6)).sum().backward()
print(m.proj.weight.grad.norm().item())
