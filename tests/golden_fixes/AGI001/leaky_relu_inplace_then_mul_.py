"""``F.leaky_relu(..., inplace=True)`` saves the result it wrote (like ``relu_``); scaling it in place
afterwards breaks backward."""
import torch
import torch.nn.functional as F


def fn(x):
    h = x - 0.1
    F.leaky_relu(h, 0.2, inplace=True)
    h = h.mul(3.0)  # expect: AGI001
    return h


def run():
    torch.manual_seed(0)
    x = torch.randn(5, requires_grad=True)
    h = fn(x)
    h.sum().backward()
    return h


if __name__ == "__main__":
    print(run())
