# intended: safe
# like: DDPM UNet ResnetBlock, h += temb_proj(silu(temb))[:, :, None, None] right after conv1 (question: is this += safe?)
import math
import torch
import torch.nn as nn
import torch.nn.functional as F


def get_timestep_embedding(timesteps, embedding_dim):
    half_dim = embedding_dim // 2
    emb = math.log(10000) / (half_dim - 1)
    emb = torch.exp(torch.arange(half_dim, dtype=torch.float32) * -emb)
    emb = timesteps.float()[:, None] * emb[None, :]
    return torch.cat([torch.sin(emb), torch.cos(emb)], dim=1)


class ResnetBlock(nn.Module):
    def __init__(self, in_ch, out_ch, temb_ch, dropout=0.1):
        super().__init__()
        self.norm1 = nn.GroupNorm(4, in_ch)
        self.conv1 = nn.Conv2d(in_ch, out_ch, 3, padding=1)
        self.temb_proj = nn.Linear(temb_ch, out_ch)
        self.norm2 = nn.GroupNorm(4, out_ch)
        self.dropout = nn.Dropout(dropout)
        self.conv2 = nn.Conv2d(out_ch, out_ch, 3, padding=1)
        self.nin_shortcut = nn.Conv2d(in_ch, out_ch, 1) if in_ch != out_ch else nn.Identity()

    def forward(self, x, temb):
        h = x
        h = self.norm1(h)
        h = F.silu(h)
        h = self.conv1(h)
        h += self.temb_proj(F.silu(temb))[:, :, None, None]
        h = self.norm2(h)
        h = F.silu(h)
        h = self.dropout(h)
        h = self.conv2(h)
        return self.nin_shortcut(x) + h


class TinyUNet(nn.Module):
    def __init__(self, ch=8, temb_ch=16):
        super().__init__()
        self.ch = ch
        self.temb = nn.Sequential(nn.Linear(ch, temb_ch), nn.SiLU(), nn.Linear(temb_ch, temb_ch))
        self.conv_in = nn.Conv2d(1, ch, 3, padding=1)
        self.down = ResnetBlock(ch, 2 * ch, temb_ch)
        self.mid = ResnetBlock(2 * ch, 2 * ch, temb_ch)
        self.up = ResnetBlock(4 * ch, ch, temb_ch)
        self.norm_out = nn.GroupNorm(4, ch)
        self.conv_out = nn.Conv2d(ch, 1, 3, padding=1)

    def forward(self, x, t):
        temb = self.temb(get_timestep_embedding(t, self.ch))
        h0 = self.conv_in(x)
        h1 = self.down(h0, temb)
        h2 = self.mid(F.avg_pool2d(h1, 2), temb)
        h = self.up(torch.cat([h1, F.interpolate(h2, scale_factor=2)], 1), temb)
        return self.conv_out(F.silu(self.norm_out(h)))


def main():
    torch.manual_seed(0)
    T = 100
    betas = torch.linspace(1e-4, 0.02, T)
    alphas_cumprod = torch.cumprod(1.0 - betas, dim=0)
    model = TinyUNet()
    optimizer = torch.optim.Adam(model.parameters(), lr=2e-4)
    x0 = torch.rand(4, 1, 8, 8) * 2 - 1
    for step in range(2):
        t = torch.randint(0, T, (4,))
        noise = torch.randn_like(x0)
        a_bar = alphas_cumprod[t].view(-1, 1, 1, 1)
        x_t = a_bar.sqrt() * x0 + (1 - a_bar).sqrt() * noise
        loss = F.mse_loss(model(x_t, t), noise)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(step, loss.item())


if __name__ == "__main__":
    main()
