# source: score_sde / DDPM++ (NCSN++) ResnetBlockDDPM with skip_rescale and Identity shortcut
# Tiny diffusion UNet trunk: GroupNorm/SiLU resblocks with time embedding and 1/sqrt(2) skip rescaling.
import math
import torch
import torch.nn as nn
import torch.nn.functional as F


def timestep_embedding(t, dim):
    half = dim // 2
    freqs = torch.exp(-math.log(10000.0) * torch.arange(half, dtype=torch.float32) / half)
    args = t.float()[:, None] * freqs[None]
    return torch.cat([torch.sin(args), torch.cos(args)], dim=-1)


class ResnetBlock(nn.Module):
    def __init__(self, in_ch, out_ch, temb_dim, groups=4, dropout=0.1, skip_rescale=True):
        super().__init__()
        self.act = nn.SiLU()
        self.norm1 = nn.GroupNorm(groups, in_ch)
        self.conv1 = nn.Conv2d(in_ch, out_ch, 3, padding=1)
        self.temb_proj = nn.Linear(temb_dim, out_ch)
        self.norm2 = nn.GroupNorm(groups, out_ch)
        self.dropout = nn.Dropout(dropout)
        self.conv2 = nn.Conv2d(out_ch, out_ch, 3, padding=1)
        self.skip = nn.Conv2d(in_ch, out_ch, 1) if in_ch != out_ch else nn.Identity()
        self.skip_rescale = skip_rescale

    def forward(self, x, temb):
        h = self.conv1(self.act(self.norm1(x)))
        h = h + self.temb_proj(self.act(temb))[:, :, None, None]
        h = self.conv2(self.dropout(self.act(self.norm2(h))))
        skip = self.skip(x)
        if self.skip_rescale:
            skip.mul_(1.0 / math.sqrt(2.0))  # culprit
            return skip + h / math.sqrt(2.0)
        return skip + h


class TinyScoreNet(nn.Module):
    def __init__(self, ch=8, temb_dim=16):
        super().__init__()
        self.temb_dim = temb_dim
        self.temb = nn.Sequential(nn.Linear(temb_dim, temb_dim * 2), nn.SiLU(), nn.Linear(temb_dim * 2, temb_dim))
        self.conv_in = nn.Conv2d(3, ch, 3, padding=1)
        self.blocks = nn.ModuleList([ResnetBlock(ch, 2 * ch, temb_dim), ResnetBlock(2 * ch, 2 * ch, temb_dim)])
        self.norm_out = nn.GroupNorm(4, 2 * ch)
        self.conv_out = nn.Conv2d(2 * ch, 3, 3, padding=1)

    def forward(self, x, t):
        temb = self.temb(timestep_embedding(t, self.temb_dim))
        h = self.conv_in(x)
        for blk in self.blocks:
            h = blk(h, temb)
        return self.conv_out(F.silu(self.norm_out(h)))


def main():
    torch.manual_seed(0)
    T = 100
    betas = torch.linspace(1e-4, 0.02, T)
    alphas_cumprod = torch.cumprod(1.0 - betas, dim=0)
    model = TinyScoreNet()
    opt = torch.optim.Adam(model.parameters(), lr=2e-4)
    x0 = torch.randn(4, 3, 8, 8)
    t = torch.randint(0, T, (4,))
    noise = torch.randn_like(x0)
    a = alphas_cumprod[t].view(-1, 1, 1, 1)
    xt = a.sqrt() * x0 + (1 - a).sqrt() * noise
    loss = F.mse_loss(model(xt, t), noise)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print("loss", loss.item())


if __name__ == "__main__":
    main()
