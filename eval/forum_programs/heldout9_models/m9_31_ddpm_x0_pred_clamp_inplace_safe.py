# source: DDPM training with an auxiliary x0 loss (lucidrains/denoising-diffusion-pytorch predict_start_from_noise + clip), tiny MLP denoiser
# DDPM step: eps predicted, x0 recovered with buffer coefficients, clamped in place to [-1, 1], then both losses computed.
import math
import torch
import torch.nn as nn
import torch.nn.functional as F


def cosine_beta_schedule(T, s=0.008):
    steps = torch.linspace(0, T, T + 1) / T
    ac = torch.cos((steps + s) / (1 + s) * math.pi * 0.5) ** 2
    ac = ac / ac[0]
    return (1 - ac[1:] / ac[:-1]).clamp(0, 0.999)


class SinusoidalPosEmb(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def forward(self, t):
        freqs = torch.exp(-math.log(10000) * torch.arange(self.dim // 2) / (self.dim // 2))
        args = t[:, None].float() * freqs[None]
        return torch.cat([args.sin(), args.cos()], dim=-1)


class Denoiser(nn.Module):
    def __init__(self, dim=6, hidden=64):
        super().__init__()
        self.t_emb = nn.Sequential(SinusoidalPosEmb(16), nn.Linear(16, hidden), nn.SiLU())
        self.inp = nn.Linear(dim, hidden)
        self.out = nn.Sequential(nn.SiLU(), nn.Linear(hidden, hidden), nn.SiLU(), nn.Linear(hidden, dim))

    def forward(self, x, t):
        return self.out(self.inp(x) + self.t_emb(t))


class GaussianDiffusion(nn.Module):
    def __init__(self, model, T=100):
        super().__init__()
        self.model, self.T = model, T
        ac = torch.cumprod(1 - cosine_beta_schedule(T), dim=0)
        self.register_buffer("sqrt_ac", ac.sqrt())
        self.register_buffer("sqrt_1m_ac", (1 - ac).sqrt())

    def forward(self, x0):
        t = torch.randint(0, self.T, (x0.size(0),))
        noise = torch.randn_like(x0)
        a, b = self.sqrt_ac[t][:, None], self.sqrt_1m_ac[t][:, None]
        x_t = a * x0 + b * noise
        eps_hat = self.model(x_t, t)
        x0_pred = (x_t - b * eps_hat) / a
        x0_pred.clamp_(-1.0, 1.0)
        return F.mse_loss(eps_hat, noise) + 0.1 * F.l1_loss(x0_pred, x0)


torch.manual_seed(0)
diffusion = GaussianDiffusion(Denoiser())
opt = torch.optim.Adam(diffusion.parameters(), lr=1e-3)
data = torch.rand(32, 6) * 2 - 1
for batch in data.split(16):
    loss = diffusion(batch)
    opt.zero_grad()
    loss.backward()
    opt.step()
print(loss.item())
