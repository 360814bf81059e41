# source: Perceiver / Perceiver IO latent array (lucidrains/perceiver-pytorch style), latents broadcast with expand and updated with +=
# Perceiver encoder: learned latents expanded over the batch and updated by cross-attention with an in-place residual add.
import torch
import torch.nn as nn
import torch.nn.functional as F


class CrossAttention(nn.Module):
    def __init__(self, d_latent, d_input, heads=2):
        super().__init__()
        self.attn = nn.MultiheadAttention(d_latent, heads, kdim=d_input, vdim=d_input, batch_first=True)
        self.norm_ctx = nn.LayerNorm(d_input)

    def forward(self, x, ctx):
        ctx = self.norm_ctx(ctx)
        return self.attn(x, ctx, ctx, need_weights=False)[0]


class Perceiver(nn.Module):
    def __init__(self, d_input=12, n_latents=8, d_latent=16, depth=2, n_classes=4):
        super().__init__()
        self.latents = nn.Parameter(torch.randn(n_latents, d_latent) * 0.02)
        self.cross = nn.ModuleList([CrossAttention(d_latent, d_input) for _ in range(depth)])
        self.cross_norm = nn.ModuleList([nn.LayerNorm(d_latent) for _ in range(depth)])
        self.ff = nn.ModuleList([nn.Sequential(nn.LayerNorm(d_latent), nn.Linear(d_latent, 32), nn.GELU(),
                                               nn.Linear(32, d_latent)) for _ in range(depth)])
        self.to_logits = nn.Sequential(nn.LayerNorm(d_latent), nn.Linear(d_latent, n_classes))

    def forward(self, data):
        x = self.latents.unsqueeze(0).expand(data.size(0), -1, -1)
        for cross, norm, ff in zip(self.cross, self.cross_norm, self.ff):
            x += cross(norm(x), data)  # culprit
            x = x + ff(x)
        return self.to_logits(x.mean(dim=1))


torch.manual_seed(0)
model = Perceiver()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
data, labels = torch.randn(3, 20, 12), torch.tensor([0, 2, 3])
loss = F.cross_entropy(model(data), labels)
opt.zero_grad()
loss.backward()
opt.step()
print(loss.item())
