# reusing a preallocated workspace with out= inside a loop
import torch
import torch.nn as nn


class Smoother(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.w = nn.Parameter(torch.ones(n))
        self.register_buffer("buf", torch.empty(n))

    def forward(self, xs):
        total = 0.0
        for x in xs:
            torch.mul(x, 2.0, out=self.buf)  # culprit
            total = total + (self.w * self.buf).sum()
        return total


def main():
    torch.manual_seed(0)
    m = Smoother(5)
    xs = [torch.randn(5) for _ in range(3)]
    m(xs).backward()
    print(m.w.grad)


if __name__ == "__main__":
    main()
