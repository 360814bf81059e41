# probe: tensors saved under torch.autograd.graph.save_on_cpu (CPU tensors) skip the version check, so writing the saved exp output does not raise
import torch
import torch.nn as nn

torch.manual_seed(0)


def forward_offloaded(fc, x):
    with torch.autograd.graph.save_on_cpu():
        h = torch.exp(fc(x))
    return h


def main():
    fc = nn.Linear(4, 4)
    x = torch.randn(3, 4)
    h = forward_offloaded(fc, x)
    h.mul_(2.0)
    loss = h.sum()
    loss.backward()
    print("grad", fc.weight.grad.norm().item())


if __name__ == "__main__":
    main()
