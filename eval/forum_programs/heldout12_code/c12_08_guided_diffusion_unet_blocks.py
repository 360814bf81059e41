# source: openai guided-diffusion ResBlock (use_scale_shift_norm) + AttentionBlock + Downsample
# Small UNet encoder with inplace SiLU after GroupNorm, FiLM time conditioning and a spatial self-attention block.
import math
import torch
import torch.nn as nn
import torch.nn.functional as F


def timestep_embedding(timesteps, dim, max_period=10000):
    half = dim // 2
    freqs = torch.exp(-math.log(max_period) * torch.arange(half, dtype=torch.float32) / half)
    args = timesteps[:, None].float() * freqs[None]
    return torch.cat([torch.cos(args), torch.sin(args)], dim=-1)


class ResBlock(nn.Module):
    def __init__(self, channels, emb_channels, out_channels=None, dropout=0.0):
        super().__init__()
        out_channels = out_channels or channels
        self.in_layers = nn.Sequential(nn.GroupNorm(4, channels), nn.SiLU(inplace=True),
                                       nn.Conv2d(channels, out_channels, 3, padding=1))
        self.emb_layers = nn.Sequential(nn.SiLU(), nn.Linear(emb_channels, 2 * out_channels))
        self.out_norm = nn.GroupNorm(4, out_channels)
        self.out_rest = nn.Sequential(nn.SiLU(inplace=True), nn.Dropout(dropout),
                                      nn.Conv2d(out_channels, out_channels, 3, padding=1))
        self.skip_connection = nn.Identity() if out_channels == channels else nn.Conv2d(channels, out_channels, 1)

    def forward(self, x, emb):
        h = self.in_layers(x)
        emb_out = self.emb_layers(emb)[..., None, None]
        scale, shift = torch.chunk(emb_out, 2, dim=1)
        h = self.out_norm(h) * (1 + scale) + shift
        h = self.out_rest(h)
        return self.skip_connection(x) + h


class AttentionBlock(nn.Module):
    def __init__(self, channels, num_heads=2):
        super().__init__()
        self.num_heads = num_heads
        self.norm = nn.GroupNorm(4, channels)
        self.qkv = nn.Conv1d(channels, channels * 3, 1)
        self.proj_out = nn.Conv1d(channels, channels, 1)

    def forward(self, x):
        b, c, hh, ww = x.shape
        x_flat = x.reshape(b, c, -1)
        qkv = self.qkv(self.norm(x_flat)).reshape(b * self.num_heads, 3 * c // self.num_heads, -1)
        q, k, v = qkv.chunk(3, dim=1)
        scale = 1 / math.sqrt(math.sqrt(c // self.num_heads))
        weight = torch.einsum("bct,bcs->bts", q * scale, k * scale)
        weight = torch.softmax(weight, dim=-1)
        a = torch.einsum("bts,bcs->bct", weight, v).reshape(b, c, -1)
        return (x_flat + self.proj_out(a)).reshape(b, c, hh, ww)


class TinyUNetEncoder(nn.Module):
    def __init__(self, ch=8, emb_dim=32):
        super().__init__()
        self.ch = ch
        self.time_embed = nn.Sequential(nn.Linear(ch, emb_dim), nn.SiLU(), nn.Linear(emb_dim, emb_dim))
        self.inp = nn.Conv2d(3, ch, 3, padding=1)
        self.res1 = ResBlock(ch, emb_dim)
        self.down = nn.Conv2d(ch, ch, 3, stride=2, padding=1)
        self.res2 = ResBlock(ch, emb_dim, 2 * ch)
        self.attn = AttentionBlock(2 * ch)
        self.out = nn.Sequential(nn.GroupNorm(4, 2 * ch), nn.SiLU(inplace=True), nn.Conv2d(2 * ch, 3, 1))

    def forward(self, x, t):
        emb = self.time_embed(timestep_embedding(t, self.ch))
        h = self.res1(self.inp(x), emb)
        h = self.attn(self.res2(self.down(h), emb))
        return F.interpolate(self.out(h), scale_factor=2, mode="nearest")


def main():
    torch.manual_seed(0)
    model = TinyUNetEncoder()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    x0 = torch.randn(2, 3, 8, 8)
    t = torch.randint(0, 1000, (2,))
    noise = torch.randn_like(x0)
    loss = F.mse_loss(model(x0 + 0.5 * noise, t), noise)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print("loss", loss.item())


if __name__ == "__main__":
    main()
