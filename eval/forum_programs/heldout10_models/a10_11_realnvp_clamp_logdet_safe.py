# source: RealNVP / Glow-style flow (nflows-like) with ActNorm, in plain torch
# raw log-scale clamped in place before exp, log-det accumulated with +=, ActNorm applied in place to a torch.cat output
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


class ActNorm(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.loc = nn.Parameter(torch.zeros(dim))
        self.log_scale = nn.Parameter(torch.zeros(dim))

    def forward(self, x):
        # x comes straight from torch.cat, which keeps no tensor for backward
        x.sub_(self.loc).mul_(torch.exp(self.log_scale))
        return x, self.log_scale.sum().expand(x.size(0))


class HalfCoupling(nn.Module):
    def __init__(self, dim, hidden, s_max=3.0):
        super().__init__()
        half = dim // 2
        self.s_net = nn.Sequential(nn.Linear(half, hidden), nn.Tanh(), nn.Linear(hidden, half))
        self.t_net = nn.Sequential(nn.Linear(half, hidden), nn.Tanh(), nn.Linear(hidden, half))
        self.s_max = s_max

    def forward(self, x):
        x1, x2 = x.chunk(2, dim=1)
        s = self.s_net(x1)
        s.clamp_(-self.s_max, self.s_max)
        y2 = x2 * torch.exp(s) + self.t_net(x1)
        return torch.cat([y2, x1], dim=1), s.sum(dim=1)


class Flow(nn.Module):
    def __init__(self, dim=6, hidden=24, steps=3):
        super().__init__()
        self.couplings = nn.ModuleList(HalfCoupling(dim, hidden) for _ in range(steps))
        self.norms = nn.ModuleList(ActNorm(dim) for _ in range(steps))
        self.dim = dim

    def forward(self, x):
        logdet = torch.zeros(x.size(0))
        for coupling, norm in zip(self.couplings, self.norms):
            x, ld = coupling(x)
            logdet += ld
            x, ld = norm(x)
            logdet += ld
        return x, logdet


def nll(flow, x):
    z, logdet = flow(x)
    log_pz = -0.5 * z.pow(2).sum(1) - 0.5 * flow.dim * math.log(2 * math.pi)
    return -(log_pz + logdet).mean()


if __name__ == "__main__":
    flow = Flow()
    opt = PlainSGD(flow.parameters(), lr=0.005)
    data = torch.randn(128, 6) @ torch.randn(6, 6) + 1.0
    for step in range(3):
        batch = data[torch.randint(0, 128, (32,))]
        loss = nll(flow, batch)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(step, loss.item())
