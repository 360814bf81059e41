# source: VAE on toy data (encoder emits [mu, logvar] in one Linear), user adds clamping "for numerical stability"
# mu, logvar = stats.chunk(2, -1); then the base stats tensor is clamped in place before logvar is used
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

X_DIM, Z_DIM, HIDDEN = 20, 4, 32


class VAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(X_DIM, HIDDEN), nn.ReLU(), nn.Linear(HIDDEN, 2 * Z_DIM))
        self.dec = nn.Sequential(nn.Linear(Z_DIM, HIDDEN), nn.ReLU(), nn.Linear(HIDDEN, X_DIM))

    def encode(self, x):
        stats = self.enc(x)
        mu, logvar = stats.chunk(2, dim=-1)
        stats.clamp_(-10.0, 10.0)  # culprit
        return mu, logvar

    def forward(self, x):
        mu, logvar = self.encode(x)
        std = torch.exp(0.5 * logvar)
        z = mu + std * torch.randn_like(std)
        return self.dec(z), mu, logvar


def vae_loss(recon, x, mu, logvar, beta=1.0):
    rec = F.mse_loss(recon, x, reduction="sum") / x.shape[0]
    kl = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp()) / x.shape[0]
    return rec + beta * kl


def train(steps=3, batch=16):
    model = VAE()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(steps):
        x = torch.randn(batch, X_DIM)
        recon, mu, logvar = model(x)
        loss = vae_loss(recon, x, mu, logvar)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step}: loss={loss.item():.4f}")


if __name__ == "__main__":
    train()
