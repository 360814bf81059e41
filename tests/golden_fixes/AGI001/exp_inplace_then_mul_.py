"""``exp_`` needs its own output for backward and saves it; the following ``mul_`` changes that output."""
import torch


def fn(x):
    h = x + 1.0
    h.exp_()
    h = h.mul(2.0)  # expect: AGI001
    return h


def run():
    torch.manual_seed(0)
    x = torch.randn(3, requires_grad=True)
    h = fn(x)
    h.sum().backward()
    return h


if __name__ == "__main__":
    print(run())
