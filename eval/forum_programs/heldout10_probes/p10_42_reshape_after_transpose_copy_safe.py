# probe: reshape of a transposed tensor has to copy, so writing the reshaped result in place leaves the saved sigmoid output intact
import torch
import torch.nn as nn

torch.manual_seed(0)


def channels_first_flat(tokens):
    b, t, d = tokens.shape
    return tokens.transpose(1, 2).reshape(b, d * t)


def main():
    fc = nn.Linear(4, 3)
    x = torch.randn(2, 5, 4)
    tokens = torch.sigmoid(fc(x))
    flat = channels_first_flat(tokens)
    flat.mul_(0.5)
    loss = flat.sum() + tokens.sum()
    loss.backward()
    print("grad", fc.weight.grad.norm().item())


if __name__ == "__main__":
    main()
