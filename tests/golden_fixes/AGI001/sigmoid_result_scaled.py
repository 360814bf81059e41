"""Scaling a sigmoid output in place: ``sigmoid`` saves its result, ``*=`` bumps it, backward raises."""
import torch


def fn(x):
    y = torch.sigmoid(x)
    y = y * 2.0  # expect: AGI001
    return y


def run():
    torch.manual_seed(0)
    x = torch.randn(2, 3, requires_grad=True)
    y = fn(x)
    y.mean().backward()
    return y


if __name__ == "__main__":
    print(run())
