# source: https://github.com/buggyyang/CDC_compression/issues/1 (modules/network_components.py, ResnetBlock: "h += ...")
# Conditional diffusion denoiser step: a ResnetBlock adds the time embedding in place onto block1's ReLU output.
import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class SinusoidalPosEmb(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        half_dim = self.dim // 2
        emb = torch.exp(torch.arange(half_dim) * -(math.log(10000) / (half_dim - 1)))
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
    def __init__(self, dim, dim_out, time_emb_dim=None):
        super().__init__()
        self.mlp = nn.Sequential(nn.LeakyReLU(0.2), nn.Linear(time_emb_dim, dim_out)) if time_emb_dim else None
        self.block1 = Block(dim, dim_out)
        self.block2 = Block(dim_out, dim_out)
        self.res_conv = nn.Conv2d(dim, dim_out, 1) if dim != dim_out else nn.Identity()

    def forward(self, x, time_emb=None):
        h = self.block1(x)
        if time_emb is not None:
            h += self.mlp(time_emb)[:, :, None, None]  # culprit
        h = self.block2(h)
        return h + self.res_conv(x)


class Denoiser(nn.Module):
    def __init__(self, ch=3, dim=8):
        super().__init__()
        self.time_mlp = nn.Sequential(SinusoidalPosEmb(dim), nn.Linear(dim, dim * 4), nn.GELU(), nn.Linear(dim * 4, dim))
        self.res1 = ResnetBlock(ch, dim, time_emb_dim=dim)
        self.res2 = ResnetBlock(dim, dim, time_emb_dim=dim)
        self.out = nn.Conv2d(dim, ch, 1)

    def forward(self, x, t):
        temb = self.time_mlp(t)
        return self.out(self.res2(self.res1(x, temb), temb))


def main():
    torch.manual_seed(0)
    betas = torch.linspace(1e-4, 0.02, 100)
    alphas_cumprod = torch.cumprod(1 - betas, 0)
    model = Denoiser()
    opt = torch.optim.Adam(model.parameters(), lr=2e-4)
    x0 = torch.randn(2, 3, 8, 8)
    t = torch.randint(0, 100, (2,))
    noise = torch.randn_like(x0)
    a = alphas_cumprod[t].view(-1, 1, 1, 1)
    x_t = a.sqrt() * x0 + (1 - a).sqrt() * noise
    loss = F.mse_loss(model(x_t, t.float()), noise)
    loss.backward()
    opt.step()
    print(loss.item())


if __name__ == "__main__":
    main()
