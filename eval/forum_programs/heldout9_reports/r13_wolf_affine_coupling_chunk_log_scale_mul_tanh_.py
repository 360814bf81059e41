# source: https://github.com/XuezheMax/wolf/pull/1 (wolf/flows/couplings/transform.py, Affine.calc_params)
# Affine coupling flow whose transform squashes the chunked log-scale in place to save memory.
import math
import torch
import torch.nn as nn


class Affine(nn.Module):
    def __init__(self, dim, alpha):
        super().__init__()
        self.dim = dim
        self.alpha = alpha

    def calc_params(self, params):
        mu, log_scale = params.chunk(2, dim=self.dim)
        scale = log_scale.mul_(0.5).tanh_().mul(self.alpha).add(1.0)  # culprit
        return mu, scale

    def fwd(self, z, params):
        mu, scale = self.calc_params(params)
        z = scale * z + mu
        logdet = scale.log().view(z.size(0), -1).sum(dim=1)
        return z, logdet


class NICEBlock(nn.Module):
    def __init__(self, features, hidden):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(features // 2, hidden), nn.ELU(), nn.Linear(hidden, features))
        self.transform = Affine(dim=1, alpha=1.0)

    def forward(self, x):
        z1, z2 = x.chunk(2, dim=1)
        z2, logdet = self.transform.fwd(z2, self.net(z1))
        return torch.cat([z2, z1], dim=1), logdet


class Flow(nn.Module):
    def __init__(self, features=4, hidden=16, depth=3):
        super().__init__()
        self.blocks = nn.ModuleList([NICEBlock(features, hidden) for _ in range(depth)])

    def forward(self, x):
        total = x.new_zeros(x.size(0))
        for blk in self.blocks:
            x, logdet = blk(x)
            total = total + logdet
        return x, total


def nll(z, logdet):
    log_pz = -0.5 * (z ** 2).sum(1) - 0.5 * z.size(1) * math.log(2 * math.pi)
    return -(log_pz + logdet).mean()


def main():
    torch.manual_seed(0)
    flow = Flow()
    opt = torch.optim.Adam(flow.parameters(), lr=1e-3)
    data = torch.randn(32, 4) * torch.tensor([1.0, 0.5, 2.0, 1.5])
    for step in range(2):
        opt.zero_grad()
        loss = nll(*flow(data))
        loss.backward()
        opt.step()
        print(step, loss.item())


if __name__ == "__main__":
    main()
