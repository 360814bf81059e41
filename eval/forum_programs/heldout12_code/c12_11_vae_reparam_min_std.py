# source: PyTorch-VAE (AntixK) VanillaVAE with a minimum posterior std floor in reparameterize
# MLP VAE on binary vectors: encoder heads for mu/logvar, std floor in the reparameterisation, BCE + KL loss.
import torch
import torch.nn as nn
import torch.nn.functional as F


class Encoder(nn.Module):
    def __init__(self, in_dim, hidden, latent):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(in_dim, hidden), nn.LeakyReLU(0.2, inplace=True),
                                  nn.Linear(hidden, hidden), nn.LeakyReLU(0.2, inplace=True))
        self.fc_mu = nn.Linear(hidden, latent)
        self.fc_var = nn.Linear(hidden, latent)

    def forward(self, x):
        h = self.body(x)
        return self.fc_mu(h), self.fc_var(h)


class Decoder(nn.Module):
    def __init__(self, latent, hidden, out_dim):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(latent, hidden), nn.LeakyReLU(0.2, inplace=True),
                                 nn.Linear(hidden, out_dim), nn.Sigmoid())

    def forward(self, z):
        return self.net(z)


class VanillaVAE(nn.Module):
    def __init__(self, in_dim=20, hidden=32, latent=4, min_std=1e-3):
        super().__init__()
        self.encoder = Encoder(in_dim, hidden, latent)
        self.decoder = Decoder(latent, hidden, in_dim)
        self.min_std = min_std

    def reparameterize(self, mu, logvar):
        std = torch.exp(0.5 * logvar)
        std.clamp_(min=self.min_std)  # culprit
        eps = torch.randn_like(std)
        return eps * std + mu

    def forward(self, x):
        mu, logvar = self.encoder(x)
        z = self.reparameterize(mu, logvar)
        return self.decoder(z), mu, logvar

    def loss_function(self, recons, x, mu, logvar, kld_weight=0.5):
        recons_loss = F.binary_cross_entropy(recons, x, reduction="sum") / x.shape[0]
        kld = torch.mean(-0.5 * torch.sum(1 + logvar - mu ** 2 - logvar.exp(), dim=1), dim=0)
        return {"loss": recons_loss + kld_weight * kld, "recon": recons_loss.detach(), "kld": kld.detach()}


def train_step(model, opt, batch):
    recons, mu, logvar = model(batch)
    losses = model.loss_function(recons, batch, mu, logvar)
    opt.zero_grad()
    losses["loss"].backward()
    opt.step()
    return {k: v.item() for k, v in losses.items()}


def main():
    torch.manual_seed(0)
    model = VanillaVAE()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    batch = (torch.rand(8, 20) > 0.5).float()
    print(train_step(model, opt, batch))


if __name__ == "__main__":
    main()
