"""Zeroing only the tail of a saved input: the slice is a view sharing the base's version counter, so
``h[2:].zero_()`` makes the whole ``h`` that ``sin`` saved stale, not just the part it wrote."""
import torch


def fn(x):
    h = x * 1.5
    y = h.sin()
    h = h.clone()
    h[2:].zero_()  # expect: AGI001
    return y


def run():
    torch.manual_seed(0)
    x = torch.randn(4, requires_grad=True)
    y = fn(x)
    y.sum().backward()
    return y


if __name__ == "__main__":
    print(run())
