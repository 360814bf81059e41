# SwiGLU variant that reuses the pre-activation tensor as the product buffer
import torch
import torch.nn as nn
import torch.nn.functional as F


class SwiGLU(nn.Module):
    def __init__(self, d, hidden):
        super().__init__()
        self.w13 = nn.Linear(d, 2 * hidden, bias=False)
        self.w2 = nn.Linear(hidden, d, bias=False)
        self.hidden = hidden

    def forward(self, x):
        h = self.w13(x)
        a, b = h[..., :self.hidden], h[..., self.hidden:]
        gate = F.silu(a)
        a.mul_(b)  # culprit
        return self.w2(a * gate)


torch.manual_seed(0)
ff = SwiGLU(4, 6)
ff(torch.randn(3, 4)).sum().backward()
print(ff.w13.weight.grad.norm())
