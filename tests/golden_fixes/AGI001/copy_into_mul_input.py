"""``h * h`` saves ``h`` twice; ``h.copy_(...)`` then overwrites it with new values."""
import torch


def fn(x, other):
    h = x + 0.5
    sq = h * h
    h = h.clone().copy_(other)  # expect: AGI001
    return sq


def run():
    torch.manual_seed(0)
    x = torch.randn(3, requires_grad=True)
    other = torch.randn(3)
    sq = fn(x, other)
    sq.sum().backward()
    return sq


if __name__ == "__main__":
    print(run())
