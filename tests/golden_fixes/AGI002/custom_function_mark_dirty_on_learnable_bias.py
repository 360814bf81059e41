"""A custom in-place ``autograd.Function`` (``ctx.mark_dirty``) applied straight to a learnable
``nn.Parameter``: the forward's in-place write on a leaf that requires grad is refused at once."""
import torch
import torch.nn as nn


class ReluInplace(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.clamp_(min=0)
        ctx.mark_dirty(x)
        ctx.save_for_backward(x)
        return x

    @staticmethod
    def backward(ctx, grad):
        (y,) = ctx.saved_tensors
        return grad * (y > 0)


class PositiveBias(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.bias = nn.Parameter(torch.randn(dim))

    def forward(self, x):
        bias = ReluInplace.apply(self.bias.clone())  # expect: AGI002
        return x + bias


def run():
    torch.manual_seed(0)
    layer = PositiveBias(4)
    out = layer(torch.randn(2, 4))
    out.sum().backward()
    return out


if __name__ == "__main__":
    print(run())
