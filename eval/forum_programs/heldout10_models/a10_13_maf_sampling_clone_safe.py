# source: MAF / MADE autoregressive flow sampling (pytorch-flows, Papamakarios et al.) trained by reverse KL
# each sampling step clones x before writing column i in place, so MADE keeps the older (unmodified) x
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


class MaskedLinear(nn.Linear):
    def __init__(self, in_f, out_f, mask):
        super().__init__(in_f, out_f)
        self.register_buffer("mask", mask)

    def forward(self, x):
        return F.linear(x, self.weight * self.mask, self.bias)


class MADE(nn.Module):
    def __init__(self, dim, hidden):
        super().__init__()
        deg_in = torch.arange(1, dim + 1)
        deg_h = torch.arange(hidden) % max(1, dim - 1) + 1
        m1 = (deg_h[:, None] >= deg_in[None, :]).float()
        m2 = (deg_in[:, None] > deg_h[None, :]).float()
        self.l1 = MaskedLinear(dim, hidden, m1)
        self.l_mu = MaskedLinear(hidden, dim, m2)
        self.l_alpha = MaskedLinear(hidden, dim, m2)

    def forward(self, x):
        h = F.relu(self.l1(x))
        return self.l_mu(h), torch.tanh(self.l_alpha(h))


class MAF(nn.Module):
    def __init__(self, dim=5, hidden=32):
        super().__init__()
        self.made = MADE(dim, hidden)
        self.dim = dim

    def sample(self, u):
        x = torch.zeros_like(u)
        log_det = torch.zeros(u.size(0))
        for i in range(self.dim):
            mu, alpha = self.made(x)
            x = x.clone()
            x[:, i] = mu[:, i] + u[:, i] * torch.exp(alpha[:, i])
            log_det.add_(alpha[:, i])
        return x, log_det


def target_energy(x):
    # banana-shaped target density
    return 0.5 * (x[:, 0] ** 2 / 4 + (x[:, 1] - 0.25 * x[:, 0] ** 2) ** 2 + (x[:, 2:] ** 2).sum(1))


def reverse_kl(flow, n):
    u = torch.randn(n, flow.dim)
    x, log_det = flow.sample(u)
    log_q = -0.5 * (u ** 2).sum(1) - 0.5 * flow.dim * math.log(2 * math.pi) - log_det
    return (log_q + target_energy(x)).mean()


if __name__ == "__main__":
    flow = MAF()
    opt = PlainSGD(flow.parameters(), lr=0.001)
    loss = reverse_kl(flow, 64)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print("kl", loss.item())
