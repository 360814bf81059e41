# source: Perceiver / Perceiver IO latent array (lucidrains/perceiver-pytorch style) with hand-written cross-attention and padded inputs
# Perceiver encoder: expanded latents with out-of-place residuals; padding filled in place into the raw cross-attention scores.
import torch
import torch.nn as nn
import torch.nn.functional as F


class CrossAttention(nn.Module):
    def __init__(self, d_latent, d_input, d_head=16):
        super().__init__()
        self.to_q = nn.Linear(d_latent, d_head, bias=False)
        self.to_kv = nn.Linear(d_input, 2 * d_head, bias=False)
        self.to_out = nn.Linear(d_head, d_latent)
        self.norm_ctx = nn.LayerNorm(d_input)
        self.scale = d_head ** -0.5

    def forward(self, x, ctx, pad_mask):
        q = self.to_q(x)
        k, v = self.to_kv(self.norm_ctx(ctx)).chunk(2, dim=-1)
        sim = torch.einsum("bid,bjd->bij", q, k)
        sim *= self.scale
        sim.masked_fill_(pad_mask[:, None, :], -torch.finfo(sim.dtype).max)
        attn = sim.softmax(dim=-1)
        return self.to_out(torch.einsum("bij,bjd->bid", attn, v))


class Perceiver(nn.Module):
    def __init__(self, d_input=12, n_latents=8, d_latent=16, depth=2, n_classes=4):
        super().__init__()
        self.latents = nn.Parameter(torch.randn(n_latents, d_latent) * 0.02)
        self.cross = nn.ModuleList([CrossAttention(d_latent, d_input) for _ in range(depth)])
        self.cross_norm = nn.ModuleList([nn.LayerNorm(d_latent) for _ in range(depth)])
        self.ff = nn.ModuleList([nn.Sequential(nn.LayerNorm(d_latent), nn.Linear(d_latent, 32), nn.GELU(),
                                               nn.Linear(32, d_latent)) for _ in range(depth)])
        self.to_logits = nn.Sequential(nn.LayerNorm(d_latent), nn.Linear(d_latent, n_classes))

    def forward(self, data, pad_mask):
        x = self.latents.unsqueeze(0).expand(data.size(0), -1, -1)
        for cross, norm, ff in zip(self.cross, self.cross_norm, self.ff):
            x = x + cross(norm(x), data, pad_mask)
            x = x + ff(x)
        return self.to_logits(x.mean(dim=1))


torch.manual_seed(0)
model = Perceiver()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
data, labels = torch.randn(3, 20, 12), torch.tensor([0, 2, 3])
lengths = torch.tensor([20, 14, 9])
pad_mask = torch.arange(20)[None, :] >= lengths[:, None]
for _ in range(2):
    loss = F.cross_entropy(model(data, pad_mask), labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
print(loss.item())
