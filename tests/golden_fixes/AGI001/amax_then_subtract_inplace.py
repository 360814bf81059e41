"""Stabilising logits in place: ``amax`` saves its input and result, ``h -= ...`` overwrites the input."""
import torch


def fn(x):
    h = x * 3.0
    h = h - h.amax(dim=-1, keepdim=True)  # expect: AGI001
    return h


def run():
    torch.manual_seed(0)
    x = torch.randn(2, 4, requires_grad=True)
    h = fn(x)
    torch.logsumexp(h, dim=-1).sum().backward()
    return h


if __name__ == "__main__":
    print(run())
