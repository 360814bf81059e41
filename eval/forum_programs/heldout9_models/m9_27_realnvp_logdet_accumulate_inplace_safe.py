# source: RealNVP / NICE-style density model on 2-D toy data (affine coupling + ActNorm + reverse permutation)
# Normalizing flow whose log-determinant is accumulated in place into a zeros buffer; the coupling output is built out of place.
import math
import torch
import torch.nn as nn


class ActNorm(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.loc = nn.Parameter(torch.zeros(dim))
        self.log_scale = nn.Parameter(torch.zeros(dim))

    def forward(self, x, log_det):
        log_det += self.log_scale.sum()
        return (x + self.loc) * torch.exp(self.log_scale)


class AffineCoupling(nn.Module):
    def __init__(self, dim, hidden=32):
        super().__init__()
        self.d = dim // 2
        self.net = nn.Sequential(nn.Linear(self.d, hidden), nn.ReLU(inplace=True), nn.Linear(hidden, 2 * (dim - self.d)))
        self.scale = nn.Parameter(torch.ones(dim - self.d))

    def forward(self, x, log_det):
        xa, xb = x[:, : self.d], x[:, self.d:]
        s, t = self.net(xa).chunk(2, dim=1)
        s = self.scale * torch.tanh(s)
        log_det += s.sum(dim=1)
        return torch.cat([xa, xb * torch.exp(s) + t], dim=1)


class RealNVP(nn.Module):
    def __init__(self, dim=2, n_blocks=4):
        super().__init__()
        self.layers = nn.ModuleList()
        for _ in range(n_blocks):
            self.layers.extend([ActNorm(dim), AffineCoupling(dim)])

    def log_prob(self, x):
        log_det = torch.zeros(x.size(0))
        for layer in self.layers:
            x = layer(x, log_det)
            if isinstance(layer, AffineCoupling):
                x = x.flip(1)
        log_pz = -0.5 * (x.pow(2) + math.log(2 * math.pi)).sum(1)
        return log_pz + log_det


torch.manual_seed(0)
theta = torch.rand(64) * 2 * math.pi
data = torch.stack([theta.cos(), theta.sin()], 1) * 2 + 0.1 * torch.randn(64, 2)
flow = RealNVP()
opt = torch.optim.Adam(flow.parameters(), lr=1e-3)
for _ in range(3):
    loss = -flow.log_prob(data).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
print(loss.item())
