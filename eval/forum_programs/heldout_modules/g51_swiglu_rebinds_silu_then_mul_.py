# SwiGLU by hand: a = silu(a) rebinds the name, then the product is formed in place on the activation
import torch
import torch.nn as nn
import torch.nn.functional as F


class SwiGLU(nn.Module):
    def __init__(self, d, hidden):
        super().__init__()
        self.w1 = nn.Linear(d, hidden, bias=False)
        self.w3 = nn.Linear(d, hidden, bias=False)
        self.w2 = nn.Linear(hidden, d, bias=False)

    def forward(self, x):
        a = self.w1(x)
        b = self.w3(x)
        a = F.silu(a)
        a.mul_(b)
        return self.w2(a)


torch.manual_seed(0)
ff = SwiGLU(4, 6)
ff(torch.randn(3, 4)).sum().backward()
print(ff.w1.weight.grad.norm())
