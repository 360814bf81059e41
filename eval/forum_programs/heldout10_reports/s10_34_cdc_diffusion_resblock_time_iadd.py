# source: https://github.com/buggyyang/CDC_compression/issues/1
# CDC conditional diffusion U-Net: ResnetBlock does h = block1(x) (Conv-LayerNorm-ReLU) then h += mlp(time_emb)[:, :, None, None]
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def exists(x):
    return x is not None


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
    def __init__(self, dim, dim_out, large=False):
        super().__init__()
        self.block = nn.Sequential(
            nn.Conv2d(dim, dim_out, 7 if large else 3, padding=3 if large else 1), LayerNorm(dim_out), nn.ReLU()
        )

    def forward(self, x):
        return self.block(x)


class ResnetBlock(nn.Module):
    def __init__(self, dim, dim_out, time_emb_dim=None, large=False):
        super().__init__()
        self.mlp = (
            nn.Sequential(nn.LeakyReLU(0.2), nn.Linear(time_emb_dim, dim_out))
            if exists(time_emb_dim)
            else None
        )
        self.block1 = Block(dim, dim_out, large)
        self.block2 = Block(dim_out, dim_out)
        self.res_conv = nn.Conv2d(dim, dim_out, 1) if dim != dim_out else nn.Identity()

    def forward(self, x, time_emb=None):
        h = self.block1(x)

        if exists(time_emb):
            h += self.mlp(time_emb)[:, :, None, None]  # culprit

        h = self.block2(h)
        return h + self.res_conv(x)


class Unet(nn.Module):
    def __init__(self, dim=16, channels=3, context_channels=8):
        super().__init__()
        self.time_mlp = nn.Sequential(SinusoidalPosEmb(dim), nn.Linear(dim, dim * 4), nn.LeakyReLU(0.2), nn.Linear(dim * 4, dim))
        self.downs = nn.ModuleList([
            nn.ModuleList([ResnetBlock(channels, dim, dim, large=True), nn.Conv2d(dim, dim, 3, 2, 1)]),
            nn.ModuleList([ResnetBlock(dim + context_channels, dim * 2, dim), nn.Identity()]),
        ])
        self.mid = ResnetBlock(dim * 2, dim * 2, dim)
        self.ups = nn.ModuleList([
            nn.ModuleList([ResnetBlock(dim * 4, dim, dim), nn.ConvTranspose2d(dim, dim, 4, 2, 1)]),
            nn.ModuleList([ResnetBlock(dim * 2, dim, dim), nn.Identity()]),
        ])
        self.final_conv = nn.Conv2d(dim, channels, 1)

    def forward(self, x, time, context):
        t = self.time_mlp(time)
        h = []
        for idx, (resnet, downsample) in enumerate(self.downs):
            if idx == 1:
                x = torch.cat([x, context], dim=1)
            x = resnet(x, t)
            h.append(x)
            x = downsample(x)
        x = self.mid(x, t)
        for resnet, upsample in self.ups:
            x = torch.cat((x, h.pop()), dim=1)
            x = resnet(x, t)
            x = upsample(x)
        return self.final_conv(x)


class Compressor(nn.Module):
    """Stand-in for the learned compressor that supplies the decoder context."""

    def __init__(self, channels=3, context_channels=8):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv2d(channels, context_channels, 5, 2, 2), nn.ReLU(),
                                 nn.Conv2d(context_channels, context_channels, 3, 1, 1))

    def forward(self, x):
        latent = self.enc(x)
        return latent + (torch.round(latent) - latent).detach()


class GaussianDiffusion(nn.Module):
    def __init__(self, denoise_fn, context_fn, num_timesteps=100):
        super().__init__()
        self.denoise_fn = denoise_fn
        self.context_fn = context_fn
        self.num_timesteps = num_timesteps
        betas = torch.linspace(1e-4, 2e-2, num_timesteps)
        alphas_cumprod = torch.cumprod(1. - betas, dim=0)
        self.register_buffer("sqrt_alphas_cumprod", alphas_cumprod.sqrt())
        self.register_buffer("sqrt_one_minus_alphas_cumprod", (1. - alphas_cumprod).sqrt())

    def q_sample(self, x_start, t, noise):
        return (self.sqrt_alphas_cumprod[t][:, None, None, None] * x_start
                + self.sqrt_one_minus_alphas_cumprod[t][:, None, None, None] * noise)

    def forward(self, x_start):
        b = x_start.size(0)
        t = torch.randint(0, self.num_timesteps, (b,))
        noise = torch.randn_like(x_start)
        x_noisy = self.q_sample(x_start, t, noise)
        context = self.context_fn(x_start)
        fx = self.denoise_fn(x_noisy, t.float(), context)
        return F.mse_loss(fx, noise)


diffusion = GaussianDiffusion(Unet(), Compressor())
optimizer = torch.optim.Adam(diffusion.parameters(), lr=1e-4)
images = torch.rand(2, 3, 16, 16) * 2 - 1
loss = diffusion(images)
optimizer.zero_grad()
loss.backward()
optimizer.step()
print("loss", loss.item())
