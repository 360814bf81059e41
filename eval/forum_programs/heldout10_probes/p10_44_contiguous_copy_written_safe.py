# probe: .contiguous() on a transposed (non-contiguous) tensor returns a copy, so writing it leaves the saved tanh output intact
import torch
import torch.nn as nn

torch.manual_seed(0)


def column_major(y):
    return y.t().contiguous()


def main():
    fc = nn.Linear(4, 3)
    x = torch.randn(5, 4)
    y = torch.tanh(fc(x))
    cols = column_major(y)
    cols.zero_()
    loss = y.sum() + cols.sum()
    loss.backward()
    print("grad", fc.weight.grad.norm().item())


if __name__ == "__main__":
    main()
