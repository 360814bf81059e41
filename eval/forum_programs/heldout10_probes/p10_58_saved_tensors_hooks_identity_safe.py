# probe: under saved_tensors_hooks (even identity pack/unpack) torch does not check versions, so writing the saved tanh output does not raise
import torch
import torch.nn as nn

torch.manual_seed(0)


def pack(t):
    return t


def unpack(t):
    return t


def hooked_forward(fc, x):
    with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
        return torch.tanh(fc(x))


def main():
    fc = nn.Linear(4, 4)
    x = torch.randn(3, 4)
    y = hooked_forward(fc, x)
    y.add_(1.0)
    loss = y.sum()
    loss.backward()
    print("grad", fc.weight.grad.norm().item())


if __name__ == "__main__":
    main()
