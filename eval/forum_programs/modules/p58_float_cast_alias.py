# mixed-precision-style helper: .float() on a tensor that is already float32 returns the same tensor
import torch
import torch.nn as nn


class ScaledGate(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.fc = nn.Linear(d, d)

    def forward(self, x):
        gate = torch.sigmoid(self.fc(x))
        g32 = gate.float()
        g32.mul_(2.0)  # culprit
        return x * g32.type_as(x)


def main():
    torch.manual_seed(0)
    m = ScaledGate(4)
    m(torch.randn(3, 4)).sum().backward()
    print(m.fc.weight.grad.norm())


if __name__ == "__main__":
    main()
