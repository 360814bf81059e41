# GLU-style split, clone before the in-place op (fine)
import torch
import torch.nn as nn


class GLU(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.proj = nn.Linear(d, 2 * d)

    def forward(self, x):
        a, b = self.proj(x).split(x.size(-1), dim=-1)
        b = b.clone()
        b.sigmoid_()
        a = a.contiguous()
        a.mul_(b)
        return a


def main():
    torch.manual_seed(0)
    m = GLU(4)
    m(torch.randn(3, 4)).sum().backward()
    print(m.proj.weight.grad.norm())


if __name__ == "__main__":
    main()
