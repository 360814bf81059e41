# logging hack: take a no_grad slice of an activation, then normalise it in place later
import torch
import torch.nn as nn


def main():
    torch.manual_seed(0)
    net = nn.Sequential(nn.Linear(4, 6), nn.ReLU())
    head = nn.Linear(6, 1)
    h = net(torch.randn(3, 4))
    with torch.no_grad():
        first = h[:, :3]
    out = head(h).sum()
    first -= first.mean()  # culprit
    out.backward()
    print(first, net[0].weight.grad.norm())


if __name__ == "__main__":
    main()
