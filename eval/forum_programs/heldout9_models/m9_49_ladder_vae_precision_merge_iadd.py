# source: Ladder VAE (Sønderby et al. 2016) precision-weighted merge of bottom-up and top-down Gaussians, precision summed in place
# Two-level Ladder VAE: the encoder precision exp(-logvar) is reused and then accumulated in place with the prior precision.
import torch
import torch.nn as nn
import torch.nn.functional as F


def gaussian_kl(mu_q, logvar_q, mu_p, logvar_p):
    return 0.5 * (logvar_p - logvar_q + (logvar_q.exp() + (mu_q - mu_p) ** 2) / logvar_p.exp() - 1).sum(-1)


def precision_weighted(mu_e, logvar_e, mu_d, logvar_d):
    prec_e = torch.exp(-logvar_e)
    prec_d = torch.exp(-logvar_d)
    mu_num = mu_e * prec_e + mu_d * prec_d
    prec_e += prec_d  # culprit
    return mu_num / prec_e, -torch.log(prec_e)


class GaussBlock(nn.Module):
    def __init__(self, d_in, d_out, hidden=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d_in, hidden), nn.LeakyReLU(0.1))
        self.mu, self.logvar = nn.Linear(hidden, d_out), nn.Linear(hidden, d_out)

    def forward(self, x):
        h = self.net(x)
        return h, self.mu(h), self.logvar(h).clamp(-6, 4)


class LadderVAE(nn.Module):
    def __init__(self, x_dim=20, z1=6, z2=3):
        super().__init__()
        self.up1, self.up2 = GaussBlock(x_dim, z1), GaussBlock(32, z2)
        self.down2 = GaussBlock(z2, z1)
        self.dec = nn.Sequential(nn.Linear(z1, 32), nn.LeakyReLU(0.1), nn.Linear(32, x_dim))

    def forward(self, x):
        h1, mu1_e, lv1_e = self.up1(x)
        _, mu2, lv2 = self.up2(h1)
        z2 = mu2 + torch.randn_like(mu2) * (0.5 * lv2).exp()
        _, mu1_p, lv1_p = self.down2(z2)
        mu1_q, lv1_q = precision_weighted(mu1_e, lv1_e, mu1_p, lv1_p)
        z1 = mu1_q + torch.randn_like(mu1_q) * (0.5 * lv1_q).exp()
        kl = gaussian_kl(mu2, lv2, torch.zeros_like(mu2), torch.zeros_like(lv2)) + gaussian_kl(mu1_q, lv1_q, mu1_p, lv1_p)
        rec = F.binary_cross_entropy_with_logits(self.dec(z1), x, reduction="none").sum(-1)
        return (rec + kl).mean()


torch.manual_seed(0)
model = LadderVAE()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
x = (torch.rand(8, 20) > 0.5).float()
loss = model(x)
opt.zero_grad()
loss.backward()
opt.step()
print(loss.item())
