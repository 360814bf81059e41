# intended: safe
# Same GAN with instance noise, but the detached fake batch is cloned before the
# in-place noise, so the generator's tanh output is untouched.
import torch
import torch.nn as nn
import torch.nn.functional as F


def noisy(t, sigma):
    t = t.detach().clone()
    t.add_(torch.randn_like(t), alpha=sigma)
    return t


torch.manual_seed(0)
G = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 6), nn.Tanh())
D = nn.Sequential(nn.Linear(6, 16), nn.LeakyReLU(0.2), nn.Linear(16, 1))
opt_g = torch.optim.Adam(G.parameters(), lr=2e-4)
opt_d = torch.optim.Adam(D.parameters(), lr=2e-4)
real = torch.rand(8, 6) * 2 - 1
for step in range(2):
    fake = G(torch.randn(8, 4))
    ld = F.softplus(-D(noisy(real, 0.1))).mean() + F.softplus(D(noisy(fake, 0.1))).mean()
    opt_d.zero_grad()
    ld.backward()
    opt_d.step()
    lg = F.softplus(-D(fake)).mean()
    opt_g.zero_grad()
    lg.backward()
    opt_g.step()
    print(step, ld.item(), lg.item())
