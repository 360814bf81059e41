# probe: a Linear layer whose input needs no grad saves only the input, so a no_grad weight step before backward is fine
import torch
import torch.nn as nn

torch.manual_seed(0)


def decay_weights(layer, lr):
    with torch.no_grad():
        layer.weight.mul_(1.0 - lr)


def main():
    layer = nn.Linear(6, 2)
    x = torch.randn(5, 6)
    y = torch.randn(5, 2)
    loss = (layer(x) - y).pow(2).mean()
    decay_weights(layer, 0.01)
    loss.backward()
    print("grad", layer.weight.grad.norm().item())


if __name__ == "__main__":
    main()
