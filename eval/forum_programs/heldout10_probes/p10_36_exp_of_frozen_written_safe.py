# probe: exp applied to a tensor that needs no grad records no node, so writing its result in place afterwards is fine
import torch
import torch.nn as nn

torch.manual_seed(0)


def positional_decay(freq):
    return torch.exp(-freq)


def main():
    fc = nn.Linear(6, 6)
    freq = torch.linspace(0.0, 2.0, 6)
    x = torch.randn(3, 6)
    h = fc(x)
    decay = positional_decay(freq)
    out = h + decay
    decay.mul_(0.5)
    loss = out.pow(2).mean() + (h * decay).sum()
    loss.backward()
    print("grad", fc.weight.grad.norm().item())


if __name__ == "__main__":
    main()
