# probe: F.silu(inplace=True) keeps its own copy of the pre-activation, so writing the activated tensor again afterwards is fine
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def activate(h):
    F.silu(h, inplace=True)
    return h


def main():
    fc = nn.Linear(5, 5)
    x = torch.randn(3, 5)
    h = activate(fc(x))
    h.mul_(2.0)
    loss = h.sum()
    loss.backward()
    print("grad", fc.weight.grad.norm().item())


if __name__ == "__main__":
    main()
