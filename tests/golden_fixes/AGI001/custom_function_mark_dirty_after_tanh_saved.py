"""A custom in-place ``autograd.Function`` (it clamps its input and declares it with ``ctx.mark_dirty``)
applied to a tanh output inside a module: tanh saved its result for backward, and ``apply`` overwrites
that very tensor, so the backward of tanh raises."""
import torch
import torch.nn as nn


class ClampInplace(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, low, high):
        mask = (x >= low) & (x <= high)
        ctx.save_for_backward(mask)
        x.clamp_(low, high)
        ctx.mark_dirty(x)
        return x

    @staticmethod
    def backward(ctx, grad):
        (mask,) = ctx.saved_tensors
        return grad * mask, None, None


class BoundedHead(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        h = torch.tanh(self.proj(x))
        h = ClampInplace.apply(h.clone(), -0.5, 0.5)  # expect: AGI001
        return h


def run():
    torch.manual_seed(0)
    head = BoundedHead(4)
    out = head(torch.randn(3, 4))
    out.sum().backward()
    return out


if __name__ == "__main__":
    print(run())
