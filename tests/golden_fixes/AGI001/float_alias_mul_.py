"""``.float()`` on a float32 tensor returns the very same tensor, so ``g.mul_`` changes the ``h`` that
``sin`` saved."""
import torch


def fn(x):
    h = x * 1.0
    g = h.float()
    y = torch.sin(h)
    g = g.mul(2.0)  # expect: AGI001
    return y


def run():
    torch.manual_seed(0)
    x = torch.randn(3, requires_grad=True)
    y = fn(x)
    y.sum().backward()
    return y


if __name__ == "__main__":
    print(run())
