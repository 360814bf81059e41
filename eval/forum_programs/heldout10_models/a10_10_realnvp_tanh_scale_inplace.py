# source: RealNVP affine coupling layer (Dinh et al.; chrischute/real-nvp style) in plain torch
# log-scale s = tanh(net(x_masked)) is multiplied in place by a learned rescale before exp(s) and log-det accumulation
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class PlainSGD:
    """Minimal SGD(+momentum) so the script does not pay torch.optim's start-up cost."""

    def __init__(self, params, lr=0.01, momentum=0.0):
        self.params = list(params)
        self.lr, self.momentum = lr, momentum
        self.bufs = [None] * len(self.params)

    def zero_grad(self):
        for p in self.params:
            p.grad = None

    @torch.no_grad()
    def step(self):
        for i, p in enumerate(self.params):
            if p.grad is None:
                continue
            d = p.grad
            if self.momentum:
                if self.bufs[i] is None:
                    self.bufs[i] = d.clone()
                else:
                    self.bufs[i].mul_(self.momentum).add_(d)
                d = self.bufs[i]
            p.add_(d, alpha=-self.lr)


class CouplingNet(nn.Module):
    def __init__(self, dim, hidden):
        super().__init__()
        self.body = nn.Sequential(
            nn.Linear(dim, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, 2 * dim)
        )

    def forward(self, x):
        return self.body(x).chunk(2, dim=1)


class AffineCoupling(nn.Module):
    def __init__(self, dim, hidden, mask):
        super().__init__()
        self.register_buffer("mask", mask)
        self.net = CouplingNet(dim, hidden)
        self.rescale = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        x_id = x * self.mask
        s_raw, t = self.net(x_id)
        s = torch.tanh(s_raw)
        s.mul_(self.rescale)  # culprit
        s = s * (1 - self.mask)
        t = t * (1 - self.mask)
        y = x_id + (1 - self.mask) * (x * torch.exp(s) + t)
        return y, s.sum(dim=1)


class RealNVP(nn.Module):
    def __init__(self, dim=4, hidden=32, n_layers=4):
        super().__init__()
        masks = [(torch.arange(dim) + i) % 2 for i in range(n_layers)]
        self.layers = nn.ModuleList(AffineCoupling(dim, hidden, m.float()) for m in masks)
        self.dim = dim

    def forward(self, x):
        logdet = x.new_zeros(x.size(0))
        for layer in self.layers:
            x, ld = layer(x)
            logdet = logdet + ld
        return x, logdet

    def log_prob(self, x):
        z, logdet = self(x)
        log_pz = -0.5 * (z ** 2).sum(1) - 0.5 * self.dim * math.log(2 * math.pi)
        return log_pz + logdet


def sample_two_moons(n):
    t = torch.rand(n) * math.pi
    upper = torch.stack([torch.cos(t), torch.sin(t)], 1)
    lower = torch.stack([1 - torch.cos(t), 0.5 - torch.sin(t)], 1)
    pts = torch.where((torch.rand(n) < 0.5)[:, None], upper, lower)
    return torch.cat([pts, 0.1 * torch.randn(n, 2)], 1)


if __name__ == "__main__":
    flow = RealNVP()
    opt = PlainSGD(flow.parameters(), lr=0.001)
    x = sample_two_moons(64)
    loss = -flow.log_prob(x).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print("nll", loss.item())
