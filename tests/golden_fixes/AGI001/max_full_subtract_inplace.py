"""``h.max()`` (no dim) saves ``h`` to find where the maximum was; subtracting it from ``h`` in place
breaks that backward."""
import torch


def fn(x):
    h = x + 1.0
    h = h - h.max()  # expect: AGI001
    return h


def run():
    torch.manual_seed(0)
    x = torch.randn(5, requires_grad=True)
    h = fn(x)
    h.exp().sum().backward()
    return h


if __name__ == "__main__":
    print(run())
