"""The function form ``torch.relu_(y)`` is as in-place as ``y.relu_()``: it overwrites the ``exp`` result."""
import torch


def fn(x):
    e = torch.exp(x)
    e = torch.relu(e)  # expect: AGI001
    return e


def run():
    torch.manual_seed(0)
    x = torch.randn(4, requires_grad=True)
    e = fn(x)
    e.sum().backward()
    return e


if __name__ == "__main__":
    print(run())
