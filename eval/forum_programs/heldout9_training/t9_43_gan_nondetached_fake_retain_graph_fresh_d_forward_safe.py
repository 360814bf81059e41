# source: forum GAN loops that skip fake.detach() for the D loss and add retain_graph=True, then re-run D for the G loss
# GAN step: D loss on the non-detached fake with retain_graph, D step, then G loss from a fresh D pass after G grads are cleared.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Generator(nn.Module):
    def __init__(self, z_dim=6, out_dim=10):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(z_dim, 32), nn.ReLU(), nn.Linear(32, out_dim), nn.Tanh())

    def forward(self, z):
        return self.net(z)


class Discriminator(nn.Module):
    def __init__(self, in_dim=10):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(in_dim, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1), nn.Sigmoid())

    def forward(self, x):
        return self.net(x).squeeze(-1)


G, D = Generator(), Discriminator()
opt_g = torch.optim.Adam(G.parameters(), lr=2e-4, betas=(0.5, 0.999))
opt_d = torch.optim.Adam(D.parameters(), lr=2e-4, betas=(0.5, 0.999))
B = 8
for step in range(3):
    real = torch.rand(B, 10) * 2 - 1
    fake = G(torch.randn(B, 6))
    ones, zeros = torch.ones(B), torch.zeros(B)

    d_loss = F.binary_cross_entropy(D(real), ones) + F.binary_cross_entropy(D(fake), zeros)
    opt_d.zero_grad()
    d_loss.backward(retain_graph=True)
    opt_d.step()

    g_loss = F.binary_cross_entropy(D(fake), ones)
    opt_g.zero_grad()
    g_loss.backward()
    opt_g.step()
    print(step, d_loss.item(), g_loss.item())
