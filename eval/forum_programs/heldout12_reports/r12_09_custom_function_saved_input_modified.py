# source: discuss.pytorch.org thread "Custom autograd.Function: saved tensor modified by an inplace operation" (LeCun scaled tanh saving its input, caller does h += act(h))
# ScaledTanh saves its input h with save_for_backward; the caller's in-place residual add on h bumps that saved tensor
import torch
import torch.nn as nn

torch.manual_seed(0)


class ScaledTanh(torch.autograd.Function):
    A, B = 1.7159, 2.0 / 3.0

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return ScaledTanh.A * torch.tanh(ScaledTanh.B * x)

    @staticmethod
    def backward(ctx, grad_out):
        (x,) = ctx.saved_tensors
        t = torch.tanh(ScaledTanh.B * x)
        return grad_out * ScaledTanh.A * ScaledTanh.B * (1 - t * t)


class ResidualMLP(nn.Module):
    def __init__(self, dim=8, depth=2, n_out=3):
        super().__init__()
        self.layers = nn.ModuleList(nn.Linear(dim, dim) for _ in range(depth))
        self.out = nn.Linear(dim, n_out)

    def forward(self, x):
        for layer in self.layers:
            h = layer(x)
            h += ScaledTanh.apply(h)  # culprit
            x = h
        return self.out(x)


model = ResidualMLP()
x = torch.randn(4, 8)
target = torch.randn(4, 3)
loss = nn.functional.mse_loss(model(x), target)
loss.backward()
print(loss.item())
