"""Standardising in place: ``h.std()`` saves ``h``; centring ``h`` in place afterwards makes it stale."""
import torch


def standardize(x):
    h = x * 1.0
    s = h.std()
    h = h - h.mean()  # expect: AGI001
    return h / s


def run():
    torch.manual_seed(0)
    x = torch.randn(6, requires_grad=True)
    z = standardize(x)
    (z * torch.arange(6.0)).sum().backward()
    return z


if __name__ == "__main__":
    print(run())
