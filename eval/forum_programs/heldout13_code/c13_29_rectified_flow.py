# source: rectified-flow / flow-matching toy code (time-conditioned MLP velocity field, AdaLN modulation, Euler sampler, EMA)
# Flow-matching training of a 2-D velocity network on a toy two-moons dataset, then Euler-integrated sampling.
import copy
import math
import torch
import torch.nn as nn
import torch.nn.functional as F
from functools import partial


def make_moons(n, noise=0.05):
    t = torch.rand(n) * math.pi
    upper = torch.stack([torch.cos(t), torch.sin(t)], dim=1)
    lower = torch.stack([1 - torch.cos(t), 0.5 - torch.sin(t)], dim=1)
    pts = torch.where((torch.rand(n) < 0.5)[:, None], upper, lower)
    return pts + noise * torch.randn_like(pts)


class TimeEmbedding(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim
        self.mlp = nn.Sequential(nn.Linear(dim, dim), nn.SiLU(), nn.Linear(dim, dim))

    def forward(self, t):
        half = self.dim // 2
        freqs = torch.exp(-math.log(1000.0) * torch.arange(half) / half)
        args = t[:, None] * 1000.0 * freqs[None]
        return self.mlp(torch.cat([args.sin(), args.cos()], dim=-1))


class AdaLNBlock(nn.Module):
    def __init__(self, dim, act_layer=partial(nn.SiLU, inplace=True)):
        super().__init__()
        self.norm = nn.LayerNorm(dim, elementwise_affine=False)
        self.modulation = nn.Linear(dim, 2 * dim)
        self.fc1, self.act, self.fc2 = nn.Linear(dim, dim * 2), act_layer(), nn.Linear(dim * 2, dim)

    def forward(self, x, temb):
        scale, shift = self.modulation(temb).chunk(2, dim=-1)
        h = self.norm(x) * (1 + scale) + shift
        h = self.act(self.fc1(h))
        h = self.fc2(h)
        h += x
        return h


class VelocityNet(nn.Module):
    def __init__(self, dim=64, depth=3):
        super().__init__()
        self.inp = nn.Linear(2, dim)
        self.temb = TimeEmbedding(dim)
        self.blocks = nn.ModuleList([AdaLNBlock(dim) for _ in range(depth)])
        self.out = nn.Linear(dim, 2)

    def forward(self, x, t):
        temb = self.temb(t)
        h = self.inp(x)
        for blk in self.blocks:
            h = blk(h, temb)
        return self.out(h)


@torch.no_grad()
def ema_update(ema_model, model, decay=0.99):
    for pe, p in zip(ema_model.parameters(), model.parameters()):
        pe.lerp_(p, 1 - decay)


@torch.no_grad()
def sample(model, n=16, steps=10):
    x = torch.randn(n, 2)
    dt = 1.0 / steps
    for i in range(steps):
        t = torch.full((n,), i * dt)
        x.add_(model(x, t), alpha=dt)
    return x


torch.manual_seed(0)
model = VelocityNet()
ema_model = copy.deepcopy(model).requires_grad_(False)
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
for step in range(5):
    x1 = make_moons(64)
    x0 = torch.randn_like(x1)
    t = torch.rand(x1.size(0))
    xt = t[:, None] * x1 + (1 - t[:, None]) * x0
    loss = F.mse_loss(model(xt, t), x1 - x0)
    opt.zero_grad()
    loss.backward()
    opt.step()
    ema_update(ema_model, model)
    print(step, round(loss.item(), 4))
print(sample(ema_model)[:3])
