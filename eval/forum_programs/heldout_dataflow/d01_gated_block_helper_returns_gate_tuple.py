# Gated residual block: a helper returns (output, gate); the caller sharpens the gate in place for a sparsity penalty
import torch
import torch.nn as nn


class GatedResidual(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.proj = nn.Linear(d, d)
        self.gate_proj = nn.Linear(d, d)

    def _gated(self, x):
        gate = torch.sigmoid(self.gate_proj(x))
        return self.proj(x) * gate, gate

    def forward(self, x):
        h, gate = self._gated(x)
        gate.mul_(2.0).sub_(1.0)  # culprit
        penalty = gate.abs().mean()
        return x + h, penalty


torch.manual_seed(0)
block = GatedResidual(6)
out, pen = block(torch.randn(4, 6))
(out.pow(2).mean() + 0.1 * pen).backward()
print(block.gate_proj.weight.grad.norm().item())
