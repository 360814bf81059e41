# source: recurring DCGAN forum shape -- one D(torch.cat([real, fake])) pass, D updated, then G loss backpropagated through that same pass
# Trains a tiny GAN where a single discriminator pass scores real and fake together and the G loss reuses it after opt_d.step().
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
    logits = D(torch.cat([real, fake], dim=0))
    real_logits, fake_logits = logits[:B], logits[B:]
    ones, zeros = torch.ones(B), torch.zeros(B)

    d_loss = F.binary_cross_entropy_with_logits(real_logits, ones) + \
        F.binary_cross_entropy_with_logits(fake_logits, zeros)
    opt_d.zero_grad()
    d_loss.backward(retain_graph=True)
    opt_d.step()  # culprit

    # reuse the fake scores from the shared pass to save a forward
    g_loss = F.binary_cross_entropy_with_logits(fake_logits, ones)
    opt_g.zero_grad()
    g_loss.backward()
    opt_g.step()
    print(step, round(d_loss.item(), 4), round(g_loss.item(), 4))
