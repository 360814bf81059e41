# Gated block: helper returns (gate, pre-activation); the caller rescales the pre-activation in place for a
# logging statistic. Sigmoid saved its output, not its input, so the in-place write is harmless.
import torch
import torch.nn as nn


class GLUHead(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.value = nn.Linear(d, d)
        self.gate_proj = nn.Linear(d, d)

    def _gate(self, x):
        pre = self.gate_proj(x)
        return torch.sigmoid(pre), pre

    def forward(self, x):
        gate, pre = self._gate(x)
        y = self.value(x) * gate
        pre.div_(pre.shape[-1] ** 0.5)
        return y, pre.detach().abs().mean()


torch.manual_seed(0)
head = GLUHead(5)
y, stat = head(torch.randn(3, 5))
y.sum().backward()
print(head.gate_proj.weight.grad.norm().item(), stat.item())
