# probe: the in-place form F.elu(inplace=True) saves its result (not its input), so a later write to that tensor makes it stale
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def block(x, fc):
    h = fc(x)
    F.elu(h, inplace=True)
    return h


def main():
    fc = nn.Linear(5, 5)
    x = torch.randn(3, 5)
    h = block(x, fc)
    h.mul_(0.5)  # culprit
    loss = h.sum()
    loss.backward()
    print("loss", loss.item())


if __name__ == "__main__":
    main()
