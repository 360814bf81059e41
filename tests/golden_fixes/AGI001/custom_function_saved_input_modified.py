"""A custom ``autograd.Function`` that saves its input with ``ctx.save_for_backward``; the caller then
modifies that input in place, and ``ctx.saved_tensors`` raises during backward."""
import torch


class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * 3 * x ** 2


def fn(a):
    h = a * 2.0
    y = Cube.apply(h)
    h = h.add(1.0)  # expect: AGI001
    return y


def run():
    torch.manual_seed(0)
    a = torch.randn(3, requires_grad=True)
    y = fn(a)
    y.sum().backward()
    return y


if __name__ == "__main__":
    print(run())
