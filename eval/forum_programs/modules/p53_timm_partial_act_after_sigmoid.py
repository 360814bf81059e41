# timm-style: act_layer given as functools.partial(nn.LeakyReLU, inplace=True) after a sigmoid gate
from functools import partial

import torch
import torch.nn as nn


class GatedConv(nn.Module):
    def __init__(self, cin, cout, act_layer=nn.ReLU):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, 3, padding=1)
        self.gate = nn.Conv2d(cin, cout, 1)
        self.act = act_layer()

    def forward(self, x):
        g = torch.sigmoid(self.gate(x))
        g = self.act(g)  # culprit
        return self.conv(x) * g


def main():
    torch.manual_seed(0)
    m = GatedConv(3, 4, act_layer=partial(nn.LeakyReLU, 0.1, inplace=True))
    m(torch.randn(1, 3, 6, 6)).sum().backward()
    print(m.gate.weight.grad.norm())


if __name__ == "__main__":
    main()
