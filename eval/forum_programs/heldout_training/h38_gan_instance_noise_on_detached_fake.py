# intended: AGI001
# GAN with instance noise for the discriminator. I detach the fake batch for D and
# add the noise in place on the detached tensor. Then the G step fails.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
G = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 6), nn.Tanh())
D = nn.Sequential(nn.Linear(6, 16), nn.LeakyReLU(0.2), nn.Linear(16, 1))
opt_g = torch.optim.Adam(G.parameters(), lr=2e-4)
opt_d = torch.optim.Adam(D.parameters(), lr=2e-4)
real = torch.rand(8, 6) * 2 - 1
sigma = 0.1
fake = G(torch.randn(8, 4))
fake_d = fake.detach()
fake_d += sigma * torch.randn_like(fake_d)  # culprit
real_d = real + sigma * torch.randn_like(real)
ld = F.softplus(-D(real_d)).mean() + F.softplus(D(fake_d)).mean()
opt_d.zero_grad()
ld.backward()
opt_d.step()
lg = F.softplus(-D(fake)).mean()
opt_g.zero_grad()
lg.backward()
opt_g.step()
print(ld.item(), lg.item())
