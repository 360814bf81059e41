# running accumulator updated in place; its square is logged as a penalty each step
import torch
import torch.nn as nn


def main():
    torch.manual_seed(0)
    enc = nn.Linear(3, 4)
    xs = enc(torch.randn(5, 3))
    acc = torch.zeros(4)
    penalty = 0.0
    for i in range(xs.size(0)):
        acc.mul_(0.9)  # culprit
        acc += xs[i]
        penalty = penalty + (acc ** 2).sum()
    loss = penalty + acc.sum()
    loss.backward()
    print(enc.weight.grad.norm())


if __name__ == "__main__":
    main()
