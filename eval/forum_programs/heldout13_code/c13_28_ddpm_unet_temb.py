# source: diffusers / openai improved-diffusion style UNet ResnetBlock with timestep embedding and DDPM training loss
# Trains a tiny time-conditioned UNet to predict noise on random images (DDPM epsilon objective).
import math
import torch
import torch.nn as nn
import torch.nn.functional as F


def timestep_embedding(timesteps, dim, max_period=10000):
    half = dim // 2
    freqs = torch.exp(-math.log(max_period) * torch.arange(half, dtype=torch.float32) / half)
    args = timesteps[:, None].float() * freqs[None]
    return torch.cat([torch.cos(args), torch.sin(args)], dim=-1)


class ResnetBlock(nn.Module):
    def __init__(self, in_ch, out_ch, temb_ch, groups=8, dropout=0.0, act_layer=nn.SiLU, inplace=True):
        super().__init__()
        self.norm1 = nn.GroupNorm(groups, in_ch)
        self.conv1 = nn.Conv2d(in_ch, out_ch, 3, padding=1)
        self.temb_proj = nn.Linear(temb_ch, out_ch)
        self.norm2 = nn.GroupNorm(groups, out_ch)
        self.dropout = nn.Dropout(dropout)
        self.conv2 = nn.Conv2d(out_ch, out_ch, 3, padding=1)
        self.act = act_layer(inplace=inplace)
        self.skip = nn.Conv2d(in_ch, out_ch, 1) if in_ch != out_ch else nn.Identity()

    def forward(self, x, temb):
        h = self.conv1(self.act(self.norm1(x)))
        h = h + self.temb_proj(self.act(temb))[:, :, None, None]  # culprit
        h = self.conv2(self.dropout(self.act(self.norm2(h))))
        return self.skip(x) + h


class TinyUNet(nn.Module):
    def __init__(self, ch=16, temb_dim=32):
        super().__init__()
        self.temb_dim = temb_dim
        self.time_mlp = nn.Sequential(nn.Linear(temb_dim, temb_dim * 2), nn.SiLU(), nn.Linear(temb_dim * 2, temb_dim * 2))
        self.conv_in = nn.Conv2d(3, ch, 3, padding=1)
        self.down = ResnetBlock(ch, ch * 2, temb_dim * 2)
        self.pool = nn.AvgPool2d(2)
        self.mid = ResnetBlock(ch * 2, ch * 2, temb_dim * 2)
        self.up = ResnetBlock(ch * 4, ch, temb_dim * 2)
        self.conv_out = nn.Sequential(nn.GroupNorm(8, ch), nn.SiLU(), nn.Conv2d(ch, 3, 3, padding=1))

    def forward(self, x, t):
        temb = self.time_mlp(timestep_embedding(t, self.temb_dim))
        h = self.conv_in(x)
        d = self.down(h, temb)
        m = self.mid(self.pool(d), temb)
        u = F.interpolate(m, scale_factor=2, mode="nearest")
        u = self.up(torch.cat([u, d], dim=1), temb)
        return self.conv_out(u)


class GaussianDiffusion(nn.Module):
    def __init__(self, model, timesteps=100):
        super().__init__()
        self.model, self.num_timesteps = model, timesteps
        betas = torch.linspace(1e-4, 0.02, timesteps)
        alphas_cumprod = torch.cumprod(1.0 - betas, dim=0)
        self.register_buffer("sqrt_alphas_cumprod", alphas_cumprod.sqrt())
        self.register_buffer("sqrt_one_minus_alphas_cumprod", (1.0 - alphas_cumprod).sqrt())

    def q_sample(self, x_start, t, noise):
        a = self.sqrt_alphas_cumprod.gather(0, t).view(-1, 1, 1, 1)
        b = self.sqrt_one_minus_alphas_cumprod.gather(0, t).view(-1, 1, 1, 1)
        return a * x_start + b * noise

    def forward(self, x_start):
        t = torch.randint(0, self.num_timesteps, (x_start.size(0),))
        noise = torch.randn_like(x_start)
        return F.mse_loss(self.model(self.q_sample(x_start, t, noise), t), noise)


torch.manual_seed(0)
diffusion = GaussianDiffusion(TinyUNet())
opt = torch.optim.Adam(diffusion.parameters(), lr=2e-4)
for step in range(2):
    loss = diffusion(torch.rand(4, 3, 16, 16) * 2 - 1)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, loss.item())
