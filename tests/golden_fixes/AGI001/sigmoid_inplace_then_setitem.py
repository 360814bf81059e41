"""``sigmoid_`` saves the result it wrote; writing a column of it afterwards makes that result stale."""
import torch


def fn(x):
    h = x * 1.0
    h.sigmoid_()
    h = h.clone()
    h[:, 0] = 1.0  # expect: AGI001
    return h


def run():
    torch.manual_seed(0)
    x = torch.randn(3, 2, requires_grad=True)
    h = fn(x)
    h.sum().backward()
    return h


if __name__ == "__main__":
    print(run())
