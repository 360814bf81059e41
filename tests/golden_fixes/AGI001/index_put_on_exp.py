"""``index_put_`` into an ``exp`` result: the saved result is overwritten at two positions."""
import torch


def fn(x):
    y = x.exp()
    idx = torch.tensor([0, 2])
    y = y.index_put((idx,), torch.zeros(2))  # expect: AGI001
    return y


def run():
    torch.manual_seed(0)
    x = torch.randn(4, requires_grad=True)
    y = fn(x)
    y.sum().backward()
    return y


if __name__ == "__main__":
    print(run())
