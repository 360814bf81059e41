"""A custom exp whose ``forward`` saves its own output; modifying that output in place outside breaks the
custom backward, exactly as with ``torch.exp``."""
import torch


class MyExp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        y = x.exp()
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, grad):
        (y,) = ctx.saved_tensors
        return grad * y


def run():
    torch.manual_seed(0)
    x = torch.randn(4, requires_grad=True)
    y = MyExp.apply(x)
    y = y + 1.0  # expect: AGI001
    y.sum().backward()
    return y


if __name__ == "__main__":
    print(run())
