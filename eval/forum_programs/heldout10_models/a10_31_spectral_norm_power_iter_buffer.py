# source: hand-written spectral normalization for a GAN discriminator (SNGAN / BigGAN-PyTorch style)
# power-iteration vector u is refreshed in place (self.u.copy_) under no_grad, but sigma = dot(self.u, W v) kept u from the previous D call
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


class SNLinear(nn.Module):
    def __init__(self, in_f, out_f, eps=1e-12):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(out_f, in_f) * 0.1)
        self.bias = nn.Parameter(torch.zeros(out_f))
        self.register_buffer("u", F.normalize(torch.randn(out_f), dim=0, eps=eps))
        self.eps = eps

    def sn_weight(self):
        W = self.weight
        with torch.no_grad():
            v = F.normalize(torch.mv(W.t(), self.u), dim=0, eps=self.eps)
            u = F.normalize(torch.mv(W, v), dim=0, eps=self.eps)
            if self.training:
                self.u.copy_(u)  # culprit
        sigma = torch.dot(self.u, torch.mv(W, v))
        return W / sigma

    def forward(self, x):
        return F.linear(x, self.sn_weight(), self.bias)


class Discriminator(nn.Module):
    def __init__(self, dim=8, hidden=32):
        super().__init__()
        self.l1 = SNLinear(dim, hidden)
        self.l2 = SNLinear(hidden, hidden)
        self.out = SNLinear(hidden, 1)

    def forward(self, x):
        x = F.leaky_relu(self.l1(x), 0.2)
        x = F.leaky_relu(self.l2(x), 0.2)
        return self.out(x)


class Generator(nn.Module):
    def __init__(self, z=4, dim=8):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(z, 32), nn.ReLU(inplace=True), nn.Linear(32, dim))

    def forward(self, z):
        return self.net(z)


def d_hinge_step(D, G, opt_d, real):
    fake = G(torch.randn(real.size(0), 4)).detach()
    loss = F.relu(1.0 - D(real)).mean() + F.relu(1.0 + D(fake)).mean()
    opt_d.zero_grad()
    loss.backward()
    opt_d.step()
    return loss.item()


if __name__ == "__main__":
    D, G = Discriminator(), Generator()
    opt_d = PlainSGD(D.parameters(), lr=0.0002)
    real = torch.randn(16, 8) * 0.5 + 1.0
    print("d_loss", d_hinge_step(D, G, opt_d, real))
