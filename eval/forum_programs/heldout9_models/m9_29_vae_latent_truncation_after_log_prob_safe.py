# source: VAE with torch.distributions posterior/prior (Monte-Carlo KL as in many pyro/pytorch VAE tutorials) + latent truncation
# VAE computing log q(z|x) and log p(z) on an rsample'd z, then clamping z in place before decoding.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Normal


class Encoder(nn.Module):
    def __init__(self, x_dim, z_dim, h=32):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(x_dim, h), nn.ReLU(inplace=True))
        self.mu = nn.Linear(h, z_dim)
        self.raw_std = nn.Linear(h, z_dim)

    def forward(self, x):
        hid = self.body(x)
        return self.mu(hid), F.softplus(self.raw_std(hid)) + 1e-4


class VAE(nn.Module):
    def __init__(self, x_dim=16, z_dim=3, trunc=3.0):
        super().__init__()
        self.encoder = Encoder(x_dim, z_dim)
        self.decoder = nn.Sequential(nn.Linear(z_dim, 32), nn.ReLU(inplace=True), nn.Linear(32, x_dim))
        self.trunc = trunc

    def elbo(self, x):
        mu, std = self.encoder(x)
        q = Normal(mu, std)
        prior = Normal(torch.zeros_like(mu), torch.ones_like(std))
        z = q.rsample()
        kl_mc = (q.log_prob(z) - prior.log_prob(z)).sum(-1)
        z.clamp_(-self.trunc, self.trunc)
        logits = self.decoder(z)
        rec = F.binary_cross_entropy_with_logits(logits, x, reduction="none").sum(-1)
        return (rec + kl_mc).mean()


torch.manual_seed(0)
model = VAE()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
data = (torch.rand(10, 16) > 0.5).float()
for epoch in range(2):
    for batch in data.split(5):
        loss = model.elbo(batch)
        opt.zero_grad()
        loss.backward()
        opt.step()
print(loss.item())
