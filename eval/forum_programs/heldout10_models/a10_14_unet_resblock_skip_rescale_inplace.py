# source: diffusers ResnetBlock2D / score-SDE NCSN++ residual block (skip_rescale) in plain torch
# block output computed as x.add_(h).div_(output_scale_factor) on the block input x, which GroupNorm norm1 kept for backward
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class PlainSGD:
    """Minimal SGD(+momentum) so the script does not pay torch.optim's start-up cost."""

    def __init__(self, params, lr=0.01, momentum=0.0):
        self.params = list(params)
        self.lr, self.momentum = lr, momentum
        self.bufs = [None] * len(self.params)

    def zero_grad(self):
        for p in self.params:
            p.grad = None

    @torch.no_grad()
    def step(self):
        for i, p in enumerate(self.params):
            if p.grad is None:
                continue
            d = p.grad
            if self.momentum:
                if self.bufs[i] is None:
                    self.bufs[i] = d.clone()
                else:
                    self.bufs[i].mul_(self.momentum).add_(d)
                d = self.bufs[i]
            p.add_(d, alpha=-self.lr)


def timestep_embedding(t, dim, max_period=10000):
    half = dim // 2
    freqs = torch.exp(-math.log(max_period) * torch.arange(half, dtype=torch.float32) / half)
    args = t[:, None].float() * freqs[None]
    return torch.cat([torch.cos(args), torch.sin(args)], dim=-1)


class ResnetBlock2D(nn.Module):
    def __init__(self, channels, temb_dim, groups=4, output_scale_factor=math.sqrt(2.0)):
        super().__init__()
        self.norm1 = nn.GroupNorm(groups, channels)
        self.conv1 = nn.Conv2d(channels, channels, 3, padding=1)
        self.time_emb_proj = nn.Linear(temb_dim, channels)
        self.norm2 = nn.GroupNorm(groups, channels)
        self.dropout = nn.Dropout(0.1)
        self.conv2 = nn.Conv2d(channels, channels, 3, padding=1)
        self.output_scale_factor = output_scale_factor

    def forward(self, x, temb):
        h = self.conv1(F.silu(self.norm1(x)))
        h = h + self.time_emb_proj(F.silu(temb))[:, :, None, None]
        h = self.conv2(self.dropout(F.silu(self.norm2(h))))
        return x.add_(h).div_(self.output_scale_factor)  # culprit


class TinyUNet(nn.Module):
    def __init__(self, ch=16, temb_dim=32):
        super().__init__()
        self.temb_dim = temb_dim
        self.time_mlp = nn.Sequential(nn.Linear(temb_dim, temb_dim), nn.SiLU(), nn.Linear(temb_dim, temb_dim))
        self.conv_in = nn.Conv2d(3, ch, 3, padding=1)
        self.down_block = ResnetBlock2D(ch, temb_dim)
        self.down = nn.Conv2d(ch, ch, 3, stride=2, padding=1)
        self.mid_block = ResnetBlock2D(ch, temb_dim)
        self.up = nn.Upsample(scale_factor=2, mode="nearest")
        self.up_block = ResnetBlock2D(ch, temb_dim)
        self.conv_out = nn.Conv2d(ch, 3, 3, padding=1)

    def forward(self, x, t):
        temb = self.time_mlp(timestep_embedding(t, self.temb_dim))
        h = self.conv_in(x)
        skip = self.down_block(h, temb)
        h = self.mid_block(self.down(skip), temb)
        h = self.up_block(self.up(h) + skip, temb)
        return self.conv_out(h)


def ddpm_loss(model, x0, alphas_cumprod):
    t = torch.randint(0, alphas_cumprod.numel(), (x0.size(0),))
    noise = torch.randn_like(x0)
    a = alphas_cumprod[t].view(-1, 1, 1, 1)
    x_t = a.sqrt() * x0 + (1 - a).sqrt() * noise
    return F.mse_loss(model(x_t, t), noise)


if __name__ == "__main__":
    betas = torch.linspace(1e-4, 0.02, 100)
    alphas_cumprod = torch.cumprod(1 - betas, dim=0)
    model = TinyUNet()
    opt = PlainSGD(model.parameters(), lr=0.0002)
    x0 = torch.randn(2, 3, 16, 16)
    loss = ddpm_loss(model, x0, alphas_cumprod)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print("loss", loss.item())
