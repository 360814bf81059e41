# source: planar flows (Rezende & Mohamed 2015, "Variational Inference with Normalizing Flows") as a VAE posterior, z updated in place
# VAE with a stack of planar flows; each flow adds u_hat * tanh(w.z + b) to z in place after w.z read it.
import torch
import torch.nn as nn
import torch.nn.functional as F


class PlanarFlow(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.u = nn.Parameter(torch.randn(1, dim) * 0.1)
        self.w = nn.Parameter(torch.randn(1, dim) * 0.1)
        self.b = nn.Parameter(torch.zeros(1))

    def forward(self, z):
        wu = (self.w * self.u).sum()
        u_hat = self.u + (F.softplus(wu) - 1 - wu) * self.w / self.w.pow(2).sum()
        lin = z @ self.w.t() + self.b
        h = torch.tanh(lin)
        psi = (1 - h.pow(2)) * self.w
        log_det = torch.log(torch.abs(1 + psi @ u_hat.t()) + 1e-8).squeeze(-1)
        z += u_hat * h  # culprit
        return z, log_det


class FlowVAE(nn.Module):
    def __init__(self, x_dim=20, z_dim=4, n_flows=3):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(x_dim, 32), nn.ReLU(), nn.Linear(32, 2 * z_dim))
        self.flows = nn.ModuleList([PlanarFlow(z_dim) for _ in range(n_flows)])
        self.dec = nn.Sequential(nn.Linear(z_dim, 32), nn.ReLU(), nn.Linear(32, x_dim))

    def forward(self, x):
        mu, logvar = self.enc(x).chunk(2, dim=-1)
        z0 = mu + torch.randn_like(mu) * torch.exp(0.5 * logvar)
        log_q0 = (-0.5 * (logvar + (z0 - mu).pow(2) / logvar.exp())).sum(-1)
        z, sum_log_det = z0, 0.0
        for flow in self.flows:
            z, ld = flow(z)
            sum_log_det = sum_log_det + ld
        log_pz = (-0.5 * z.pow(2)).sum(-1)
        recon = F.binary_cross_entropy_with_logits(self.dec(z), x, reduction="none").sum(-1)
        return (recon + log_q0 - sum_log_det - log_pz).mean()


torch.manual_seed(0)
model = FlowVAE()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
x = (torch.rand(8, 20) > 0.5).float()
loss = model(x)
opt.zero_grad()
loss.backward()
opt.step()
print(loss.item())
