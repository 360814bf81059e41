# source: DCGAN tutorial ordering (pytorch/examples dcgan) rewritten with one concatenated D batch for the D step
# Trains a tiny GAN: D scores cat(real, fake.detach()) in one pass, steps, then G gets a fresh D pass on the non-detached fake.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Generator(nn.Module):
    def __init__(self, z_dim=8, out_dim=16):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(z_dim, 32), nn.ReLU(), nn.Linear(32, out_dim), nn.Tanh())

    def forward(self, z):
        return self.net(z)


class Discriminator(nn.Module):
    def __init__(self, in_dim=16):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(in_dim, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1))

    def forward(self, x):
        return self.net(x).squeeze(-1)


G, D = Generator(), Discriminator()
opt_g = torch.optim.Adam(G.parameters(), lr=2e-4, betas=(0.5, 0.999))
opt_d = torch.optim.Adam(D.parameters(), lr=2e-4, betas=(0.5, 0.999))
B = 8
for step in range(3):
    real = torch.randn(B, 16)
    fake = G(torch.randn(B, 8))
    ones, zeros = torch.ones(B), torch.zeros(B)

    logits = D(torch.cat([real, fake.detach()], dim=0))
    d_loss = F.binary_cross_entropy_with_logits(logits, torch.cat([ones, zeros]))
    opt_d.zero_grad()
    d_loss.backward()
    opt_d.step()

    # D has moved: score the fake again with the updated discriminator
    g_loss = F.binary_cross_entropy_with_logits(D(fake), ones)
    opt_g.zero_grad()
    g_loss.backward()
    opt_g.step()
    print(step, round(d_loss.item(), 4), round(g_loss.item(), 4))
