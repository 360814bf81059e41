"""``h += F.gelu(h)``: gelu saves its input ``h``, and the in-place add then overwrites it."""
import torch
import torch.nn.functional as F


def fn(x):
    h = x * 0.5
    h = h + F.gelu(h)  # expect: AGI001
    return h


def run():
    torch.manual_seed(0)
    x = torch.randn(2, 3, requires_grad=True)
    h = fn(x)
    h.sum().backward()
    return h


if __name__ == "__main__":
    print(run())
