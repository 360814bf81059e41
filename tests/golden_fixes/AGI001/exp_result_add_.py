"""``torch.exp`` saves its result for backward; ``y.add_(1)`` then changes that result, so backward raises."""
import torch


def fn(x):
    y = torch.exp(x)
    y = y.add(1.0)  # expect: AGI001
    return y


def run():
    torch.manual_seed(0)
    x = torch.randn(3, requires_grad=True)
    y = fn(x)
    y.sum().backward()
    return y


if __name__ == "__main__":
    print(run())
