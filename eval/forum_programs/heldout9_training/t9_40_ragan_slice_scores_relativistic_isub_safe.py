# source: relativistic average GAN (RaGAN, Jolicoeur-Martineau 2018) D step, scores of a concatenated batch sliced [:B] / [B:]
# RaGAN discriminator update: real/fake score slices of one Linear output are made relativistic in place before any loss reads them.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Discriminator(nn.Module):
    def __init__(self, dim=16):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(dim, 64), nn.LeakyReLU(0.2), nn.Linear(64, 1))

    def forward(self, x):
        return self.net(x).squeeze(-1)


def relativistic(d_real, d_fake):
    real_mean = d_real.mean()
    d_real -= d_fake.mean()
    d_fake -= real_mean
    return d_real, d_fake


G = nn.Sequential(nn.Linear(8, 64), nn.ReLU(), nn.Linear(64, 16))
D = Discriminator()
opt_d = torch.optim.Adam(D.parameters(), lr=1e-4, betas=(0.5, 0.999))
B = 12
for step in range(3):
    real = torch.randn(B, 16)
    with torch.no_grad():
        fake = G(torch.randn(B, 8))
    scores = D(torch.cat([real, fake]))
    rel_real, rel_fake = relativistic(scores[:B], scores[B:])
    loss_d = (F.binary_cross_entropy_with_logits(rel_real, torch.ones(B)) +
              F.binary_cross_entropy_with_logits(rel_fake, torch.zeros(B))) / 2
    opt_d.zero_grad()
    loss_d.backward()
    opt_d.step()
    print(step, loss_d.item())
