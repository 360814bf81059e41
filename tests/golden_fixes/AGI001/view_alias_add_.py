"""A ``.view`` taken into a local name and modified later: the view and ``h`` share one version counter,
so ``v.add_(1)`` makes the ``h`` saved by ``sin`` stale."""
import torch


def fn(x):
    h = x * 2.0
    v = h.view(6)
    y = torch.sin(h)
    v = v.add(1.0)  # expect: AGI001
    return y


def run():
    torch.manual_seed(0)
    x = torch.randn(2, 3, requires_grad=True)
    y = fn(x)
    y.sum().backward()
    return y


if __name__ == "__main__":
    print(run())
