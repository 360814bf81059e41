# source: https://github.com/buggyyang/CDC_compression/issues/1 ("RuntimeError: one of the variables needed for gradient computation has been modified by an inplace operation？")
# Epsilon-prediction training of a small diffusion UNet whose ResNet blocks take a sinusoidal time embedding.
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class SinusoidalPosEmb(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        half_dim = self.dim // 2
        emb = math.log(10000) / (half_dim - 1)
        emb = torch.exp(torch.arange(half_dim) * -emb)
        emb = x[:, None] * emb[None, :]
        return torch.cat((emb.sin(), emb.cos()), dim=-1)


class LayerNorm(nn.Module):
    def __init__(self, dim, eps=1e-5):
        super().__init__()
        self.eps = eps
        self.g = nn.Parameter(torch.ones(1, dim, 1, 1))
        self.b = nn.Parameter(torch.zeros(1, dim, 1, 1))

    def forward(self, x):
        var = torch.var(x, dim=1, unbiased=False, keepdim=True)
        mean = torch.mean(x, dim=1, keepdim=True)
        return (x - mean) / (var + self.eps).sqrt() * self.g + self.b


class Block(nn.Module):
    def __init__(self, dim, dim_out):
        super().__init__()
        self.block = nn.Sequential(nn.Conv2d(dim, dim_out, 3, padding=1), LayerNorm(dim_out), nn.ReLU())

    def forward(self, x):
        return self.block(x)


class ResnetBlock(nn.Module):
    def __init__(self, dim, dim_out, time_emb_dim):
        super().__init__()
        self.mlp = nn.Sequential(nn.LeakyReLU(0.2), nn.Linear(time_emb_dim, dim_out))
        self.block1 = Block(dim, dim_out)
        self.block2 = Block(dim_out, dim_out)
        self.res_conv = nn.Conv2d(dim, dim_out, 1) if dim != dim_out else nn.Identity()

    def forward(self, x, time_emb):
        h = self.block1(x)
        h += self.mlp(time_emb)[:, :, None, None]  # culprit
        h = self.block2(h)
        return h + self.res_conv(x)


class Unet(nn.Module):
    def __init__(self, dim=16, channels=3):
        super().__init__()
        self.time_mlp = nn.Sequential(SinusoidalPosEmb(dim), nn.Linear(dim, dim * 4), nn.LeakyReLU(0.2), nn.Linear(dim * 4, dim))
        self.init = nn.Conv2d(channels, dim, 3, padding=1)
        self.down = ResnetBlock(dim, dim * 2, dim)
        self.mid = ResnetBlock(dim * 2, dim * 2, dim)
        self.up = ResnetBlock(dim * 4, dim, dim)
        self.final = nn.Conv2d(dim, channels, 1)

    def forward(self, x, t):
        t = self.time_mlp(t)
        x = self.init(x)
        h1 = self.down(x, t)
        h2 = self.mid(F.avg_pool2d(h1, 2), t)
        h2 = F.interpolate(h2, scale_factor=2)
        return self.final(self.up(torch.cat([h1, h2], dim=1), t))


num_timesteps = 100
betas = torch.linspace(1e-4, 0.02, num_timesteps)
alphas_cumprod = torch.cumprod(1 - betas, dim=0)

model = Unet()
opt = torch.optim.Adam(model.parameters(), lr=2e-4)
for step in range(3):
    x_start = torch.randn(4, 3, 8, 8)
    t = torch.randint(0, num_timesteps, (4,))
    noise = torch.randn_like(x_start)
    a = alphas_cumprod[t][:, None, None, None]
    x_noisy = a.sqrt() * x_start + (1 - a).sqrt() * noise
    loss = F.mse_loss(model(x_noisy, t.float()), noise)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step}: loss {loss.item():.4f}")
