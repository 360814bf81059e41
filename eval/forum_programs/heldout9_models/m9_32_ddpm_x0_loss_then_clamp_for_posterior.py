# source: DDPM with hybrid losses (x0 loss + posterior-mean loss, cf. openai/improved-diffusion q_posterior_mean_variance), tiny MLP denoiser
# DDPM step: x0 loss computed on the raw prediction, then x0 clamped in place before the posterior-mean loss.
import math
import torch
import torch.nn as nn
import torch.nn.functional as F


def linear_beta_schedule(T):
    return torch.linspace(1e-4, 0.02, T)


class Denoiser(nn.Module):
    def __init__(self, dim=6, hidden=64, T=100):
        super().__init__()
        self.t_emb = nn.Embedding(T, hidden)
        self.net = nn.Sequential(nn.Linear(dim, hidden), nn.SiLU(), nn.Linear(hidden, hidden))
        self.head = nn.Sequential(nn.SiLU(), nn.Linear(hidden, dim))

    def forward(self, x, t):
        return self.head(self.net(x) + self.t_emb(t))


class GaussianDiffusion(nn.Module):
    def __init__(self, model, T=100):
        super().__init__()
        self.model, self.T = model, T
        betas = linear_beta_schedule(T)
        ac = torch.cumprod(1 - betas, 0)
        ac_prev = F.pad(ac[:-1], (1, 0), value=1.0)
        self.register_buffer("sqrt_ac", ac.sqrt())
        self.register_buffer("sqrt_1m_ac", (1 - ac).sqrt())
        self.register_buffer("coef1", betas * ac_prev.sqrt() / (1 - ac))
        self.register_buffer("coef2", (1 - ac_prev) * (1 - betas).sqrt() / (1 - ac))

    def q_posterior_mean(self, x0, x_t, t):
        return self.coef1[t][:, None] * x0 + self.coef2[t][:, None] * x_t

    def forward(self, x0):
        t = torch.randint(1, self.T, (x0.size(0),))
        noise = torch.randn_like(x0)
        x_t = self.sqrt_ac[t][:, None] * x0 + self.sqrt_1m_ac[t][:, None] * noise
        x0_pred = self.model(x_t, t)
        loss_x0 = F.mse_loss(x0_pred, x0)
        x0_pred.clamp_(-1.0, 1.0)  # culprit
        mean_pred = self.q_posterior_mean(x0_pred, x_t, t)
        loss_mean = F.mse_loss(mean_pred, self.q_posterior_mean(x0, x_t, t))
        return loss_x0 + loss_mean


torch.manual_seed(0)
diffusion = GaussianDiffusion(Denoiser())
opt = torch.optim.Adam(diffusion.parameters(), lr=1e-3)
batch = torch.rand(16, 6) * 2 - 1
loss = diffusion(batch)
opt.zero_grad()
loss.backward()
opt.step()
print(loss.item())
