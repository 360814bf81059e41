# rotary embedding applied in-place on the two halves from chunk()
import torch
import torch.nn as nn


def rope_cache(T, dim, base=10000.0):
    inv = 1.0 / (base ** (torch.arange(0, dim, 2).float() / dim))
    ang = torch.outer(torch.arange(T).float(), inv)
    return ang.cos(), ang.sin()


def apply_rope(x, cos, sin):
    x1, x2 = x.chunk(2, dim=-1)
    tmp = x1 * sin
    x1.mul_(cos)  # culprit
    x1.sub_(x2 * sin)
    x2.mul_(cos).add_(tmp)
    return x


def main():
    torch.manual_seed(0)
    lin = nn.Linear(8, 8)
    x = lin(torch.randn(5, 8))
    cos, sin = rope_cache(5, 8)
    y = apply_rope(x, cos, sin)
    y.sum().backward()
    print(lin.weight.grad.norm())


if __name__ == "__main__":
    main()
