"""An index assignment into a ``tanh`` output: ``h[0] = 0`` is an in-place write of the saved result."""
import torch


def fn(x):
    h = torch.tanh(x)
    h = h.clone()
    h[0] = 0.0  # expect: AGI001
    return h


def run():
    torch.manual_seed(0)
    x = torch.randn(4, 2, requires_grad=True)
    h = fn(x)
    h.pow(2).sum().backward()
    return h


if __name__ == "__main__":
    print(run())
