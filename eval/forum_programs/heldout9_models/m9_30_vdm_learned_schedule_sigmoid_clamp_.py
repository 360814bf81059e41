# source: Variational Diffusion Models (Kingma et al. 2021; google-research/vdm) learned monotonic noise schedule gamma(t), ported to PyTorch
# VDM training step: alpha^2 = sigmoid(-gamma(t)) from a learned monotone net, clamped in place for numerical safety.
import torch
import torch.nn as nn
import torch.nn.functional as F


class PositiveLinear(nn.Linear):
    def forward(self, x):
        return F.linear(x, F.softplus(self.weight), self.bias)


class NoiseSchedule(nn.Module):
    def __init__(self, gamma_min=-6.0, gamma_max=6.0):
        super().__init__()
        self.l1 = PositiveLinear(1, 1)
        self.l2 = PositiveLinear(1, 16)
        self.l3 = PositiveLinear(16, 1)
        self.gamma_min, self.gamma_max = gamma_min, gamma_max

    def forward(self, t):
        h = self.l1(t)
        g = h + self.l3(torch.sigmoid(self.l2(h)))
        return self.gamma_min + (self.gamma_max - self.gamma_min) * torch.sigmoid(g)


class ScoreNet(nn.Module):
    def __init__(self, dim=8, hidden=64):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(dim + 1, hidden), nn.SiLU(), nn.Linear(hidden, hidden), nn.SiLU(),
                                 nn.Linear(hidden, dim))

    def forward(self, z, gamma):
        return self.net(torch.cat([z, gamma], dim=-1))


def vdm_diffusion_loss(x, score_net, schedule):
    t = torch.rand(x.size(0), 1)
    gamma = schedule(t)
    alpha2 = torch.sigmoid(-gamma)
    alpha2.clamp_(min=1e-5)  # culprit
    sigma2 = torch.sigmoid(gamma)
    eps = torch.randn_like(x)
    z_t = alpha2.sqrt() * x + sigma2.sqrt() * eps
    eps_hat = score_net(z_t, gamma)
    return 0.5 * (gamma.exp() * (eps - eps_hat).pow(2)).sum(-1).mean()


torch.manual_seed(0)
score_net, schedule = ScoreNet(), NoiseSchedule()
opt = torch.optim.AdamW([*score_net.parameters(), *schedule.parameters()], lr=2e-4)
x0 = torch.randn(16, 8)
loss = vdm_diffusion_loss(x0, score_net, schedule)
opt.zero_grad()
loss.backward()
opt.step()
print(loss.item())
