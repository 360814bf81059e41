# source: classifier-free guidance training (Ho & Salimans 2022) in a conditional DDPM, class embedding zeroed for dropped labels
# Conditional denoiser: the nn.Embedding class vector is zeroed in place for the CFG-dropped rows before joining the time embedding.
import torch
import torch.nn as nn
import torch.nn.functional as F


class ResBlock(nn.Module):
    def __init__(self, hidden, emb_dim):
        super().__init__()
        self.norm = nn.GroupNorm(4, hidden)
        self.fc = nn.Linear(hidden, hidden)
        self.emb_proj = nn.Linear(emb_dim, hidden)

    def forward(self, h, emb):
        out = self.fc(F.silu(self.norm(h)))
        out += self.emb_proj(F.silu(emb))
        return h + out


class CondDenoiser(nn.Module):
    def __init__(self, dim=6, hidden=32, n_classes=5, T=50, p_uncond=0.2):
        super().__init__()
        self.time_emb = nn.Embedding(T, hidden)
        self.class_emb = nn.Embedding(n_classes, hidden)
        self.inp = nn.Linear(dim, hidden)
        self.blocks = nn.ModuleList([ResBlock(hidden, hidden) for _ in range(2)])
        self.out = nn.Linear(hidden, dim)
        self.p_uncond = p_uncond

    def forward(self, x, t, y):
        c = self.class_emb(y)
        if self.training:
            drop = torch.rand(y.shape[0]) < self.p_uncond
            c[drop] = 0.0
        emb = self.time_emb(t) + c
        h = self.inp(x)
        for blk in self.blocks:
            h = blk(h, emb)
        return self.out(h)


torch.manual_seed(0)
T = 50
ac = torch.cumprod(1 - torch.linspace(1e-4, 0.02, T), 0)
model = CondDenoiser(T=T)
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
x0, y = torch.randn(12, 6), torch.randint(0, 5, (12,))
for _ in range(2):
    t = torch.randint(0, T, (12,))
    noise = torch.randn_like(x0)
    x_t = ac[t].sqrt()[:, None] * x0 + (1 - ac[t]).sqrt()[:, None] * noise
    loss = F.mse_loss(model(x_t, t, y), noise)
    opt.zero_grad()
    loss.backward()
    opt.step()
print(loss.item())
