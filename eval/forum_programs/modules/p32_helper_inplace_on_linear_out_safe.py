# helper that modifies its argument in place, but the argument was never saved
import torch
import torch.nn as nn


def standardize_(t, eps=1e-5):
    t.sub_(t.mean(dim=0, keepdim=True).detach())
    t.div_(t.std(dim=0, keepdim=True).detach() + eps)
    return t


def clip_(t, v):
    return t.clamp_(-v, v)


def main():
    torch.manual_seed(0)
    enc = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 8))
    z = enc(torch.randn(6, 4))
    z = standardize_(z)
    z = clip_(z, 2.0)
    loss = (z ** 2).mean()
    loss.backward()
    print(enc[0].weight.grad.norm())


if __name__ == "__main__":
    main()
