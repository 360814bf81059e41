# source: diffusers ResnetBlock2D / guided-diffusion ResBlock in plain torch
# time embedding added in place to conv1's output, in-place SiLU on GroupNorm output, skip added in place to conv2's output
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


class ResBlock(nn.Module):
    def __init__(self, cin, cout, temb_dim, groups=4, output_scale_factor=1.0):
        super().__init__()
        self.norm1 = nn.GroupNorm(groups, cin)
        self.conv1 = nn.Conv2d(cin, cout, 3, padding=1)
        self.temb_proj = nn.Linear(temb_dim, cout)
        self.norm2 = nn.GroupNorm(groups, cout)
        self.dropout = nn.Dropout(0.1)
        self.conv2 = nn.Conv2d(cout, cout, 3, padding=1)
        self.skip = nn.Conv2d(cin, cout, 1) if cin != cout else None
        self.output_scale_factor = output_scale_factor

    def forward(self, x, temb):
        h = self.conv1(F.silu(self.norm1(x)))
        h += self.temb_proj(F.silu(temb))[:, :, None, None]
        h = self.norm2(h)
        F.silu(h, inplace=True)
        h = self.conv2(self.dropout(h))
        shortcut = x if self.skip is None else self.skip(x)
        h.add_(shortcut).div_(self.output_scale_factor)
        return h


class Downsample(nn.Module):
    def __init__(self, ch):
        super().__init__()
        self.op = nn.Conv2d(ch, ch, 3, stride=2, padding=1)

    def forward(self, x):
        return self.op(x)


class TinyUNet(nn.Module):
    def __init__(self, ch=16, temb_dim=32):
        super().__init__()
        self.temb_dim = temb_dim
        self.time_mlp = nn.Sequential(nn.Linear(temb_dim, temb_dim), nn.SiLU(), nn.Linear(temb_dim, temb_dim))
        self.conv_in = nn.Conv2d(3, ch, 3, padding=1)
        self.enc1 = ResBlock(ch, ch, temb_dim)
        self.down = Downsample(ch)
        self.enc2 = ResBlock(ch, 2 * ch, temb_dim)
        self.mid = ResBlock(2 * ch, 2 * ch, temb_dim, output_scale_factor=math.sqrt(2.0))
        self.dec2 = ResBlock(4 * ch, ch, temb_dim)
        self.dec1 = ResBlock(2 * ch, ch, temb_dim)
        self.out_norm = nn.GroupNorm(4, ch)
        self.conv_out = nn.Conv2d(ch, 3, 3, padding=1)

    def forward(self, x, t):
        temb = self.time_mlp(timestep_embedding(t, self.temb_dim))
        h0 = self.enc1(self.conv_in(x), temb)
        h1 = self.enc2(self.down(h0), temb)
        h = self.mid(h1, temb)
        h = self.dec2(torch.cat([h, h1], 1), temb)
        h = F.interpolate(h, scale_factor=2, mode="nearest")
        h = self.dec1(torch.cat([h, h0], 1), temb)
        return self.conv_out(F.silu(self.out_norm(h)))


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
    for step in range(2):
        loss = ddpm_loss(model, torch.randn(2, 3, 8, 8), alphas_cumprod)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(step, loss.item())
