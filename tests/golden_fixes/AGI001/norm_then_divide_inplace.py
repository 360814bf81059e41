"""Normalising to unit length in place: ``h.norm()`` saves ``h`` (and its result), and ``h /= ...``
overwrites ``h`` in the same statement."""
import torch


def fn(x):
    h = x + 0.0
    h = h / h.norm()  # expect: AGI001
    return h


def run():
    torch.manual_seed(0)
    x = torch.randn(4, requires_grad=True)
    h = fn(x)
    (h * torch.arange(4.0)).sum().backward()
    return h


if __name__ == "__main__":
    print(run())
