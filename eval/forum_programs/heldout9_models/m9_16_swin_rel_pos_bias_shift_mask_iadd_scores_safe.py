# source: Swin Transformer V1 WindowAttention (microsoft/Swin-Transformer swin_transformer.py) with bias and shift mask added to the scores in place
# Shifted-window attention: q pre-scaled, relative-position bias and the SW-MSA mask added in place to q@k^T before softmax.
import torch
import torch.nn as nn
import torch.nn.functional as F


class WindowAttention(nn.Module):
    def __init__(self, dim, window, num_heads):
        super().__init__()
        self.num_heads, self.scale = num_heads, (dim // num_heads) ** -0.5
        self.relative_position_bias_table = nn.Parameter(torch.randn((2 * window - 1) ** 2, num_heads) * 0.02)
        coords = torch.stack(torch.meshgrid(torch.arange(window), torch.arange(window), indexing="ij")).flatten(1)
        rel = (coords[:, :, None] - coords[:, None, :]).permute(1, 2, 0) + (window - 1)
        self.register_buffer("relative_position_index", rel[..., 0] * (2 * window - 1) + rel[..., 1])
        self.qkv = nn.Linear(dim, dim * 3)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x, mask=None):
        B_, N, C = x.shape
        q, k, v = self.qkv(x).reshape(B_, N, 3, self.num_heads, -1).permute(2, 0, 3, 1, 4)
        q = q * self.scale
        attn = q @ k.transpose(-2, -1)
        bias = self.relative_position_bias_table[self.relative_position_index.view(-1)].view(N, N, -1)
        attn += bias.permute(2, 0, 1).unsqueeze(0)
        if mask is not None:
            nW = mask.shape[0]
            attn.view(B_ // nW, nW, self.num_heads, N, N).add_(mask.unsqueeze(1).unsqueeze(0))
        attn = attn.softmax(dim=-1)
        return self.proj((attn @ v).transpose(1, 2).reshape(B_, N, C))


def shift_attn_mask(H, W, ws, shift):
    img_mask = torch.zeros(1, H, W, 1)
    cnt = 0
    for h in (slice(0, -ws), slice(-ws, -shift), slice(-shift, None)):
        for w in (slice(0, -ws), slice(-ws, -shift), slice(-shift, None)):
            img_mask[:, h, w, :] = cnt
            cnt += 1
    win = img_mask.view(1, H // ws, ws, W // ws, ws, 1).permute(0, 1, 3, 2, 4, 5).reshape(-1, ws * ws)
    m = win.unsqueeze(1) - win.unsqueeze(2)
    return m.masked_fill(m != 0, -100.0).masked_fill(m == 0, 0.0)


torch.manual_seed(0)
ws, shift = 4, 2
attn = WindowAttention(16, ws, 2)
head = nn.Linear(16, 3)
opt = torch.optim.AdamW([*attn.parameters(), *head.parameters()], lr=1e-3)
feat = torch.roll(torch.randn(2, 8, 8, 16), shifts=(-shift, -shift), dims=(1, 2))
windows = feat.view(2, 2, ws, 2, ws, 16).permute(0, 1, 3, 2, 4, 5).reshape(-1, ws * ws, 16)
out = attn(windows, mask=shift_attn_mask(8, 8, ws, shift))
loss = F.cross_entropy(head(out.mean(1)), torch.randint(0, 3, (out.size(0),)))
opt.zero_grad()
loss.backward()
opt.step()
print(loss.item())
