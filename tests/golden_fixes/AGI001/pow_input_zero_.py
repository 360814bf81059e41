"""``h ** 2`` saves ``h`` (d h^2 = 2h); zeroing ``h`` afterwards, to "reset" it, breaks backward."""
import torch


def fn(x):
    h = x - 1.0
    sq = h ** 2
    h = h.clone().zero_()  # expect: AGI001
    return sq


def run():
    torch.manual_seed(0)
    x = torch.randn(3, requires_grad=True)
    sq = fn(x)
    sq.sum().backward()
    return sq


if __name__ == "__main__":
    print(run())
