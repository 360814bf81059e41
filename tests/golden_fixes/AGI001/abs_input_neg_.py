"""``abs`` saves its input for the sign; negating the input in place afterwards breaks backward."""
import torch


def fn(x):
    h = x - 0.2
    y = h.abs()
    h = h.neg()  # expect: AGI001
    return y


def run():
    torch.manual_seed(0)
    x = torch.randn(4, requires_grad=True)
    y = fn(x)
    y.sum().backward()
    return y


if __name__ == "__main__":
    print(run())
