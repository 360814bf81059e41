"""Resetting a ``tanh`` output with ``copy_``: the saved result is overwritten, backward raises."""
import torch


def fn(x, fresh):
    y = torch.tanh(x)
    out = y * 3.0
    y = y.clone().copy_(fresh)  # expect: AGI001
    return out


def run():
    torch.manual_seed(0)
    x = torch.randn(3, requires_grad=True)
    out = fn(x, torch.zeros(3))
    out.sum().backward()
    return out


if __name__ == "__main__":
    print(run())
