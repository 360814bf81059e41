# intended: safe
# Iterative magnitude pruning: a masked Linear multiplies its weight by a mask buffer; the
# mask and the weight are updated in place only after backward and optimizer.step().
import torch
import torch.nn as nn
import torch.nn.functional as F


class MaskedLinear(nn.Linear):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.register_buffer("mask", torch.ones_like(self.weight))

    def forward(self, x):
        return F.linear(x, self.weight * self.mask, self.bias)

    @torch.no_grad()
    def prune_(self, frac):
        alive = self.weight[self.mask.bool()].abs()
        k = int(frac * alive.numel())
        if k == 0:
            return
        thresh = alive.kthvalue(k).values
        self.mask[self.weight.abs() <= thresh] = 0
        self.weight.mul_(self.mask)


def main():
    torch.manual_seed(0)
    net = nn.Sequential(MaskedLinear(8, 16), nn.ReLU(), MaskedLinear(16, 1))
    opt = torch.optim.SGD(net.parameters(), lr=0.05)
    x = torch.randn(32, 8)
    y = x[:, :1] - x[:, 1:2]
    for rnd in range(3):
        loss = F.mse_loss(net(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        for m in net:
            if isinstance(m, MaskedLinear):
                m.prune_(0.2)
        print(rnd, round(loss.item(), 4), int(net[0].mask.sum()))


if __name__ == "__main__":
    main()
