# in-place accumulation of weighted features in a loop; nothing saves acc
import torch
import torch.nn as nn


def main():
    torch.manual_seed(0)
    enc = nn.Linear(3, 4)
    w = nn.Parameter(torch.rand(5))
    xs = enc(torch.randn(5, 3))
    acc = torch.zeros(4)
    history = []
    for i in range(xs.size(0)):
        acc += w[i] * xs[i]
        acc *= 0.9
        history.append(torch.tanh(acc.clone()))
        acc.clamp_(-3, 3)
    loss = acc.sum() + torch.stack(history).sum()
    loss.backward()
    print(w.grad)


if __name__ == "__main__":
    main()
