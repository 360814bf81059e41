# rotary embedding written back into the input slices (numerically wrong, but autograd is fine)
import torch
import torch.nn as nn


def apply_rotary(x, cos, sin):
    half = x.shape[-1] // 2
    x1 = x[..., :half]
    x2 = x[..., half:]
    x[..., :half] = x1 * cos - x2 * sin
    x[..., half:] = x1 * sin + x2 * cos
    return x


def main():
    torch.manual_seed(0)
    proj = nn.Linear(8, 8)
    x = proj(torch.randn(3, 8))
    ang = torch.arange(3).float()[:, None] * torch.ones(4)
    y = apply_rotary(x, ang.cos(), ang.sin())
    y.sum().backward()
    print(proj.weight.grad.norm())


if __name__ == "__main__":
    main()
