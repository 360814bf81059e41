# source: https://github.com/XuezheMax/wolf/pull/1 (contributor's change: log_scale.clone().mul_(0.5).tanh_()...)
# Affine coupling flow that keeps the memory-saving in-place squash, but on a clone of the chunked log-scale.
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
        scale = log_scale.clone().mul_(0.5).tanh_().mul(self.alpha).add(1.0)
        return mu, scale

    def fwd(self, z, params):
        mu, scale = self.calc_params(params)
        z = scale * z + mu
        logdet = scale.log().view(z.size(0), -1).sum(dim=1)
        return z, logdet

    def bwd(self, z, params):
        mu, scale = self.calc_params(params)
        z = (z - mu).div(scale + 1e-12)
        return z, -scale.log().view(z.size(0), -1).sum(dim=1)


class NICEBlock(nn.Module):
    def __init__(self, features, hidden):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(features // 2, hidden), nn.ELU(inplace=True), nn.Linear(hidden, features))
        self.transform = Affine(dim=1, alpha=1.0)

    def forward(self, x):
        z1, z2 = x.chunk(2, dim=1)
        z2, logdet = self.transform.fwd(z2, self.net(z1))
        return torch.cat([z2, z1], dim=1), logdet


def main():
    torch.manual_seed(0)
    blocks = nn.ModuleList([NICEBlock(4, 16) for _ in range(3)])
    opt = torch.optim.Adam(blocks.parameters(), lr=1e-3)
    data = torch.randn(32, 4) * torch.tensor([1.0, 0.5, 2.0, 1.5])
    for step in range(2):
        opt.zero_grad()
        z, total = data, data.new_zeros(data.size(0))
        for blk in blocks:
            z, logdet = blk(z)
            total = total + logdet
        log_pz = -0.5 * (z ** 2).sum(1) - 0.5 * z.size(1) * math.log(2 * math.pi)
        loss = -(log_pz + total).mean()
        loss.backward()
        opt.step()
        print(step, loss.item())


if __name__ == "__main__":
    main()
