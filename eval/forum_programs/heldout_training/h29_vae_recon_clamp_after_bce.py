# intended: AGI001
# VAE with a Bernoulli decoder. BCE on the sigmoid output, then for the extra
# log-likelihood metric I clamp the reconstruction in place to avoid log(0).
import torch
import torch.nn as nn
import torch.nn.functional as F


class VAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Linear(12, 2 * 3)
        self.dec = nn.Linear(3, 12)

    def forward(self, x):
        mu, logvar = self.enc(x).chunk(2, dim=1)
        z = mu + torch.randn_like(mu) * (0.5 * logvar).exp()
        return torch.sigmoid(self.dec(z)), mu, logvar


torch.manual_seed(0)
vae = VAE()
opt = torch.optim.Adam(vae.parameters(), lr=1e-3)
x = torch.rand(8, 12).round()
recon, mu, logvar = vae(x)
bce = F.binary_cross_entropy(recon, x, reduction="sum")
kld = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
recon.clamp_(1e-6, 1 - 1e-6)  # culprit
ll = (x * recon.log() + (1 - x) * (1 - recon).log()).sum()
opt.zero_grad()
(bce + kld).backward()
opt.step()
print(bce.item(), kld.item(), ll.item())
