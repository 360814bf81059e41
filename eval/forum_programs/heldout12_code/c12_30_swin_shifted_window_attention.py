# source: Swin Transformer (microsoft/Swin-Transformer, timm swin_transformer.py) WindowAttention + SwinTransformerBlock
# Shifted-window attention with relative position bias indexing, mask built by slice writes and in-place bias add.
import torch
import torch.nn as nn
import torch.nn.functional as F


def window_partition(x, ws):
    B, H, W, C = x.shape
    x = x.view(B, H // ws, ws, W // ws, ws, C)
    return x.permute(0, 1, 3, 2, 4, 5).reshape(-1, ws * ws, C)


def window_reverse(windows, ws, H, W):
    B = windows.shape[0] // ((H // ws) * (W // ws))
    x = windows.view(B, H // ws, W // ws, ws, ws, -1)
    return x.permute(0, 1, 3, 2, 4, 5).reshape(B, H, W, -1)


class WindowAttention(nn.Module):
    def __init__(self, dim, ws, num_heads):
        super().__init__()
        self.ws, self.num_heads = ws, num_heads
        self.scale = (dim // num_heads) ** -0.5
        self.relative_position_bias_table = nn.Parameter(torch.randn((2 * ws - 1) ** 2, num_heads) * 0.02)
        coords = torch.stack(torch.meshgrid(torch.arange(ws), torch.arange(ws), indexing="ij")).flatten(1)
        rel = (coords[:, :, None] - coords[:, None, :]).permute(1, 2, 0).contiguous()
        rel += ws - 1
        rel[:, :, 0] *= 2 * ws - 1
        self.register_buffer("relative_position_index", rel.sum(-1), persistent=False)
        self.qkv = nn.Linear(dim, dim * 3)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x, mask=None):
        B_, N, C = x.shape
        qkv = self.qkv(x).reshape(B_, N, 3, self.num_heads, C // self.num_heads).permute(2, 0, 3, 1, 4)
        q, k, v = qkv.unbind(0)
        q = q * self.scale
        attn = q @ k.transpose(-2, -1)
        bias = self.relative_position_bias_table[self.relative_position_index.view(-1)].view(N, N, -1)
        attn += bias.permute(2, 0, 1).unsqueeze(0)
        if mask is not None:
            attn = attn.view(-1, mask.shape[0], self.num_heads, N, N) + mask.unsqueeze(1).unsqueeze(0)
            attn = attn.view(-1, self.num_heads, N, N)
        attn = attn.softmax(dim=-1)
        return self.proj((attn @ v).transpose(1, 2).reshape(B_, N, C))


class SwinBlock(nn.Module):
    def __init__(self, dim, res, num_heads, ws=4, shift=0):
        super().__init__()
        self.res, self.ws, self.shift = res, ws, shift
        self.norm1, self.norm2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.attn = WindowAttention(dim, ws, num_heads)
        self.mlp = nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))
        self.register_buffer("attn_mask", self._build_mask() if shift > 0 else None, persistent=False)

    @torch.no_grad()
    def _build_mask(self):
        H = W = self.res
        img_mask = torch.zeros(1, H, W, 1)
        cnt = 0
        for h in (slice(0, -self.ws), slice(-self.ws, -self.shift), slice(-self.shift, None)):
            for w in (slice(0, -self.ws), slice(-self.ws, -self.shift), slice(-self.shift, None)):
                img_mask[:, h, w, :] = cnt
                cnt += 1
        mw = window_partition(img_mask, self.ws).squeeze(-1)
        attn_mask = mw.unsqueeze(1) - mw.unsqueeze(2)
        return attn_mask.masked_fill_(attn_mask != 0, -100.0)

    def forward(self, x):
        B, L, C = x.shape
        shortcut = x
        x = self.norm1(x).view(B, self.res, self.res, C)
        if self.shift:
            x = torch.roll(x, shifts=(-self.shift, -self.shift), dims=(1, 2))
        x = window_reverse(self.attn(window_partition(x, self.ws), self.attn_mask), self.ws, self.res, self.res)
        if self.shift:
            x = torch.roll(x, shifts=(self.shift, self.shift), dims=(1, 2))
        x = shortcut + x.reshape(B, L, C)
        return x + self.mlp(self.norm2(x))


def main():
    torch.manual_seed(0)
    embed = nn.Conv2d(3, 16, 2, 2)
    blocks = nn.Sequential(SwinBlock(16, 8, 2, shift=0), SwinBlock(16, 8, 2, shift=2))
    head = nn.Linear(16, 5)
    opt = torch.optim.AdamW([*embed.parameters(), *blocks.parameters(), *head.parameters()], lr=1e-3)
    x, y = torch.randn(2, 3, 16, 16), torch.tensor([1, 3])
    feats = blocks(embed(x).flatten(2).transpose(1, 2))
    loss = F.cross_entropy(head(feats.mean(1)), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print("loss", loss.item())


if __name__ == "__main__":
    main()
