# unrolled Newton-style refinement: x -= step * (x**3 - b)
import torch
import torch.nn as nn


class Refiner(nn.Module):
    def __init__(self, n_iter=3):
        super().__init__()
        self.init = nn.Linear(2, 2)
        self.step = nn.Parameter(torch.tensor(0.1))
        self.n_iter = n_iter

    def forward(self, b):
        x = self.init(b)
        for _ in range(self.n_iter):
            r = x ** 3 - b
            x -= self.step * r  # culprit
        return x


def main():
    torch.manual_seed(0)
    m = Refiner()
    b = torch.randn(4, 2)
    x = m(b)
    ((x ** 3 - b) ** 2).mean().backward()
    print(m.step.grad)


if __name__ == "__main__":
    main()
