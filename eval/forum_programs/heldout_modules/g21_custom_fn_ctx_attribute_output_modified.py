# Custom Function that keeps its output on ctx as an attribute (not save_for_backward); caller edits it in place
import torch
import torch.nn as nn


class Softsign(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.denom = 1 + x.abs()
        return x / ctx.denom

    @staticmethod
    def backward(ctx, g):
        return g / ctx.denom ** 2


torch.manual_seed(0)
lin = nn.Linear(3, 3)
y = Softsign.apply(lin(torch.randn(2, 3)))
y.clamp_(-0.9, 0.9)
y.mul_(2)
y.sum().backward()
print(lin.weight.grad.norm())
