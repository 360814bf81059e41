# probe: clone gives a tensor with its own version counter, so writing the clone leaves the saved exp output intact
import torch
import torch.nn as nn

torch.manual_seed(0)


def log_weights(w):
    shown = w.clone()
    shown.clamp_(max=2.0)
    return shown


def main():
    fc = nn.Linear(4, 3)
    x = torch.randn(5, 4)
    w = torch.exp(fc(x))
    shown = log_weights(w)
    loss = w.sum() + shown.sum()
    loss.backward()
    print("grad", fc.weight.grad.norm().item())


if __name__ == "__main__":
    main()
