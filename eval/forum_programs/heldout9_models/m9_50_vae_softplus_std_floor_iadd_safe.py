# source: Gaussian-encoder VAE with softplus-parametrised std and a minimum-std floor (common in world models / RSSM posteriors)
# VAE encoder: std = softplus(raw) then `std += min_std` in place; reparameterised sample and analytic KL follow.
import torch
import torch.nn as nn
import torch.nn.functional as F


class GaussianEncoder(nn.Module):
    def __init__(self, x_dim, z_dim, hidden=32, min_std=0.1):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(x_dim, hidden), nn.ELU(), nn.Linear(hidden, hidden), nn.ELU())
        self.head = nn.Linear(hidden, 2 * z_dim)
        self.min_std = min_std

    def forward(self, x):
        mean, raw_std = self.head(self.body(x)).chunk(2, dim=-1)
        std = F.softplus(raw_std)
        std += self.min_std
        return mean, std


class VAE(nn.Module):
    def __init__(self, x_dim=16, z_dim=4):
        super().__init__()
        self.encoder = GaussianEncoder(x_dim, z_dim)
        self.decoder = nn.Sequential(nn.Linear(z_dim, 32), nn.ELU(), nn.Linear(32, x_dim))

    def forward(self, x, beta=1.0):
        mean, std = self.encoder(x)
        z = mean + std * torch.randn_like(std)
        recon = self.decoder(z)
        rec = F.mse_loss(recon, x, reduction="none").sum(-1)
        kl = 0.5 * (mean.pow(2) + std.pow(2) - 1 - 2 * std.log()).sum(-1)
        return (rec + beta * kl).mean(), kl.mean()


torch.manual_seed(0)
model = VAE()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
data = torch.randn(24, 16)
for step, batch in enumerate(data.split(8)):
    beta = min(1.0, 0.3 * (step + 1))
    loss, kl = model(batch, beta)
    opt.zero_grad()
    loss.backward()
    opt.step()
print(loss.item(), kl.item())
