# .double() on a float32 tensor is a copy, so the in-place edit does not touch the saved sigmoid
import torch
import torch.nn as nn


class ScaledGate(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.fc = nn.Linear(d, d)

    def forward(self, x):
        gate = torch.sigmoid(self.fc(x))
        g64 = gate.double()
        g64.mul_(2.0)
        return x * g64.float() + gate


def main():
    torch.manual_seed(0)
    m = ScaledGate(4)
    m(torch.randn(3, 4)).sum().backward()
    print(m.fc.weight.grad.norm())


if __name__ == "__main__":
    main()
