# Gated unit: a sparsity penalty is taken on the gate pre-activation, then the gate is squashed in place
import torch
import torch.nn as nn


class GatedUnit(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.gate = nn.Linear(d, d)
        self.val = nn.Linear(d, d)

    def forward(self, x):
        z = self.gate(x)
        penalty = (z ** 2).mean()
        z.sigmoid_()  # culprit
        return z * self.val(x), penalty


torch.manual_seed(0)
gu = GatedUnit(4)
y, pen = gu(torch.randn(3, 4))
(y.sum() + 0.1 * pen).backward()
print(gu.gate.weight.grad.norm())
