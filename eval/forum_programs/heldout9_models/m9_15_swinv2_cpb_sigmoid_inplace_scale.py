# source: Swin Transformer V2 WindowAttention (microsoft/Swin-Transformer swin_transformer_v2.py) continuous position bias `16 * torch.sigmoid(...)`, rescaled in place
# Swin V2 cosine window attention; the CPB-MLP bias table goes through sigmoid and is then multiplied by 16 in place.
import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class WindowAttentionV2(nn.Module):
    def __init__(self, dim, window, num_heads):
        super().__init__()
        self.window, self.num_heads = window, num_heads
        self.logit_scale = nn.Parameter(torch.log(10 * torch.ones(num_heads, 1, 1)))
        self.cpb_mlp = nn.Sequential(nn.Linear(2, 32), nn.ReLU(inplace=True), nn.Linear(32, num_heads, bias=False))
        rel = torch.arange(-(window - 1), window, dtype=torch.float32)
        table = torch.stack(torch.meshgrid(rel, rel, indexing="ij"), -1) / (window - 1) * 8
        table = torch.sign(table) * torch.log2(table.abs() + 1.0) / math.log2(8)
        self.register_buffer("coords_table", table, persistent=False)
        coords = torch.stack(torch.meshgrid(torch.arange(window), torch.arange(window), indexing="ij")).flatten(1)
        rel_coords = (coords[:, :, None] - coords[:, None, :]).permute(1, 2, 0) + (window - 1)
        self.register_buffer("rel_index", rel_coords[..., 0] * (2 * window - 1) + rel_coords[..., 1], persistent=False)
        self.qkv = nn.Linear(dim, dim * 3)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        B_, N, C = x.shape
        q, k, v = self.qkv(x).reshape(B_, N, 3, self.num_heads, -1).permute(2, 0, 3, 1, 4)
        attn = F.normalize(q, dim=-1) @ F.normalize(k, dim=-1).transpose(-2, -1)
        attn = attn * torch.clamp(self.logit_scale, max=math.log(100.0)).exp()
        bias_table = self.cpb_mlp(self.coords_table).view(-1, self.num_heads)
        bias = bias_table[self.rel_index.view(-1)].view(N, N, -1).permute(2, 0, 1)
        bias = torch.sigmoid(bias)
        bias *= 16  # culprit
        attn = F.softmax(attn + bias.unsqueeze(0), dim=-1)
        return self.proj((attn @ v).transpose(1, 2).reshape(B_, N, C))


def window_partition(x, ws):
    B, H, W, C = x.shape
    x = x.view(B, H // ws, ws, W // ws, ws, C)
    return x.permute(0, 1, 3, 2, 4, 5).reshape(-1, ws * ws, C)


torch.manual_seed(0)
attn = WindowAttentionV2(dim=16, window=4, num_heads=2)
norm, head = nn.LayerNorm(16), nn.Linear(16, 3)
params = [*attn.parameters(), *norm.parameters(), *head.parameters()]
opt = torch.optim.AdamW(params, lr=1e-3)
feat = torch.randn(2, 8, 8, 16)
windows = window_partition(feat, 4)
out = windows + norm(attn(windows))
loss = F.cross_entropy(head(out.mean(1)), torch.randint(0, 3, (out.size(0),)))
opt.zero_grad()
loss.backward()
opt.step()
print(loss.item())
