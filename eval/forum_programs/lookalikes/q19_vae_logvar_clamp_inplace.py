# intended: safe
# VAE encoder clamps the log-variance in place right after its Linear layer and scales the
# mean in place for a KL annealing warm start, before either is used anywhere.
import torch
import torch.nn as nn
import torch.nn.functional as F


class VAE(nn.Module):
    def __init__(self, d_in=12, d_z=3):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(d_in, 24), nn.ReLU())
        self.mu = nn.Linear(24, d_z)
        self.logvar = nn.Linear(24, d_z)
        self.dec = nn.Sequential(nn.Linear(d_z, 24), nn.ReLU(), nn.Linear(24, d_in))

    def forward(self, x, mu_scale=1.0):
        h = self.enc(x)
        mu = self.mu(h)
        logvar = self.logvar(h)
        logvar.clamp_(min=-6.0, max=4.0)
        mu *= mu_scale
        std = torch.exp(0.5 * logvar)
        z = mu + std * torch.randn_like(std)
        recon = self.dec(z)
        kl = -0.5 * (1 + logvar - mu.pow(2) - logvar.exp()).sum(1).mean()
        return recon, kl


def main():
    torch.manual_seed(0)
    vae = VAE()
    opt = torch.optim.Adam(vae.parameters(), lr=1e-3)
    x = torch.randn(16, 12)
    for step in range(4):
        recon, kl = vae(x, mu_scale=min(1.0, 0.5 + 0.25 * step))
        loss = F.mse_loss(recon, x) + 0.1 * kl
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(step, round(loss.item(), 4), round(kl.item(), 4))


if __name__ == "__main__":
    main()
