# in-place custom clamp Function applied to a tanh output (tanh saved it)
import torch
import torch.nn as nn


class ClampInplace(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, lo, hi):
        mask = (x >= lo) & (x <= hi)
        ctx.save_for_backward(mask)
        x.clamp_(lo, hi)
        ctx.mark_dirty(x)
        return x

    @staticmethod
    def backward(ctx, g):
        (mask,) = ctx.saved_tensors
        return g * mask, None, None


def main():
    torch.manual_seed(0)
    lin = nn.Linear(4, 4)
    h = torch.tanh(lin(torch.randn(3, 4)))
    h = ClampInplace.apply(h, -0.5, 0.5)  # culprit
    h.sum().backward()
    print(lin.weight.grad)


if __name__ == "__main__":
    main()
