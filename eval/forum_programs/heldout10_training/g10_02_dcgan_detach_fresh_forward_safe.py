# source: PyTorch DCGAN tutorial training loop, shrunk to MLPs on toy data
# D step on fake.detach(), d_opt.step(), then a fresh D(fake) forward for the generator loss
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

LATENT = 8
DATA_DIM = 16


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(LATENT, 32), nn.ReLU(),
            nn.Linear(32, DATA_DIM), nn.Tanh(),
        )

    def forward(self, z):
        return self.net(z)


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(DATA_DIM, 32), nn.LeakyReLU(0.2),
            nn.Linear(32, 1),
        )

    def forward(self, x):
        return self.net(x)


def real_batch(n):
    return torch.randn(n, DATA_DIM) * 0.5 + 1.0


def train(steps=3, batch=32):
    G, D = Generator(), Discriminator()
    g_opt = torch.optim.Adam(G.parameters(), lr=2e-4, betas=(0.5, 0.999))
    d_opt = torch.optim.Adam(D.parameters(), lr=2e-4, betas=(0.5, 0.999))
    real_label = torch.full((batch, 1), 0.9)  # one-sided label smoothing
    fake_label = torch.zeros(batch, 1)
    for step in range(steps):
        real = real_batch(batch)
        real.add_(0.05 * torch.randn_like(real))  # instance noise, done in place on data
        fake = G(torch.randn(batch, LATENT))

        # ---- discriminator ----
        d_opt.zero_grad()
        d_loss = F.binary_cross_entropy_with_logits(D(real), real_label) + \
            F.binary_cross_entropy_with_logits(D(fake.detach()), fake_label)
        d_loss.backward()
        d_opt.step()

        # ---- generator: fresh forward through the updated D ----
        g_opt.zero_grad()
        g_loss = F.binary_cross_entropy_with_logits(D(fake), torch.ones(batch, 1))
        g_loss.backward()
        g_opt.step()
        print(f"step {step}: d_loss={d_loss.item():.4f} g_loss={g_loss.item():.4f}")


if __name__ == "__main__":
    train()
