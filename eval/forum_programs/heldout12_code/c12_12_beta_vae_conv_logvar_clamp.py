# source: beta-VAE (Higgins et al.) conv encoder/decoder as in 1Konny/Beta-VAE, with KL warm-up buffer
# Conv beta-VAE that clamps the log-variance head in place and anneals beta via a step-counter buffer.
import torch
import torch.nn as nn
import torch.nn.functional as F


class BetaVAE(nn.Module):
    def __init__(self, z_dim=6, nc=1, beta=4.0, warmup_steps=10):
        super().__init__()
        self.z_dim = z_dim
        self.beta = beta
        self.warmup_steps = warmup_steps
        self.register_buffer("step", torch.zeros((), dtype=torch.long))
        self.encoder = nn.Sequential(
            nn.Conv2d(nc, 8, 4, 2, 1), nn.BatchNorm2d(8), nn.ReLU(inplace=True),
            nn.Conv2d(8, 16, 4, 2, 1), nn.BatchNorm2d(16), nn.ReLU(inplace=True),
            nn.Flatten(), nn.Linear(16 * 4 * 4, 2 * z_dim))
        self.fc_dec = nn.Linear(z_dim, 16 * 4 * 4)
        self.decoder = nn.Sequential(
            nn.ReLU(inplace=True), nn.Unflatten(1, (16, 4, 4)),
            nn.ConvTranspose2d(16, 8, 4, 2, 1), nn.BatchNorm2d(8), nn.ReLU(inplace=True),
            nn.ConvTranspose2d(8, nc, 4, 2, 1))

    def encode(self, x):
        stats = self.encoder(x)
        mu, logvar = stats[:, : self.z_dim], stats[:, self.z_dim:]
        logvar.clamp_(-8.0, 8.0)
        return mu, logvar

    def forward(self, x):
        mu, logvar = self.encode(x)
        z = mu + torch.randn_like(mu) * torch.exp(0.5 * logvar)
        return self.decoder(self.fc_dec(z)), mu, logvar

    def current_beta(self):
        return self.beta * min(1.0, self.step.item() / self.warmup_steps)


def kl_divergence(mu, logvar):
    return (-0.5 * (1 + logvar - mu.pow(2) - logvar.exp())).sum(1).mean()


def main():
    torch.manual_seed(0)
    model = BetaVAE()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3, betas=(0.9, 0.999))
    x = (torch.rand(4, 1, 16, 16) > 0.7).float()
    for _ in range(2):
        logits, mu, logvar = model(x)
        recon = F.binary_cross_entropy_with_logits(logits, x, reduction="sum") / x.size(0)
        loss = recon + model.current_beta() * kl_divergence(mu, logvar)
        opt.zero_grad()
        loss.backward()
        opt.step()
        with torch.no_grad():
            model.step.add_(1)
        print("loss", loss.item())


if __name__ == "__main__":
    main()
