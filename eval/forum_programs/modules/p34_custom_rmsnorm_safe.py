# hand-written RMSNorm with an in-place multiply on a fresh tensor (fine)
import torch
import torch.nn as nn


class RMSNorm(nn.Module):
    def __init__(self, d, eps=1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(d))

    def _norm(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps)

    def forward(self, x):
        out = self._norm(x.float())
        out.mul_(2.0)
        return out.type_as(x) * self.weight


def main():
    torch.manual_seed(0)
    net = nn.Sequential(nn.Linear(4, 6), RMSNorm(6), nn.Linear(6, 2))
    net(torch.randn(3, 4)).sum().backward()
    print(net[0].weight.grad.norm())


if __name__ == "__main__":
    main()
