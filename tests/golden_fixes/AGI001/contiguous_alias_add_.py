"""``.contiguous()`` on an already contiguous tensor returns the same tensor: ``c.add_`` changes the ``h``
saved by ``sin``."""
import torch


def fn(x):
    h = x * 1.0
    y = torch.sin(h)
    c = h.contiguous()
    c = c.add(1.0)  # expect: AGI001
    return y


def run():
    torch.manual_seed(0)
    x = torch.randn(2, 3, requires_grad=True)
    y = fn(x)
    y.sum().backward()
    return y


if __name__ == "__main__":
    print(run())
