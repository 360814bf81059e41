# source: https://github.com/lucidrains/flamingo-pytorch/issues/10 ("zeroing out attention not working")
# Flamingo-style masked cross-attention from text tokens to the most recent image's media tokens.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class MaskedCrossAttention(nn.Module):
    def __init__(self, dim, dim_head=16, heads=4, only_attend_immediate_media=True):
        super().__init__()
        self.scale = dim_head ** -0.5
        self.heads = heads
        inner_dim = dim_head * heads
        self.norm = nn.LayerNorm(dim)
        self.to_q = nn.Linear(dim, inner_dim, bias=False)
        self.to_kv = nn.Linear(dim, inner_dim * 2, bias=False)
        self.to_out = nn.Linear(inner_dim, dim, bias=False)
        self.only_attend_immediate_media = only_attend_immediate_media

    def split_heads(self, t):
        b, n, _ = t.shape
        return t.view(b, n, self.heads, -1).transpose(1, 2)

    def forward(self, x, media, media_locations):
        # x: (b, n_text, d); media: (b, t_media, m, d); media_locations: (b, n_text) bool
        b, t_media, m, _ = media.shape
        x = self.norm(x)
        q = self.split_heads(self.to_q(x))
        media = media.reshape(b, t_media * m, -1)
        k, v = self.to_kv(media).chunk(2, dim=-1)
        k, v = self.split_heads(k), self.split_heads(v)
        q = q * self.scale

        sim = torch.einsum("bhid,bhjd->bhij", q, k)

        text_time = media_locations.cumsum(dim=-1)       # which image each token follows
        media_time = torch.arange(t_media) + 1
        media_time = media_time.repeat_interleave(m)      # (t_media * m,)
        text_to_media_mask = text_time[:, None, :, None] == media_time[None, None, None, :]
        sim.masked_fill_(~text_to_media_mask, -torch.finfo(sim.dtype).max)

        sim = sim - sim.amax(dim=-1, keepdim=True).detach()
        attn = sim.softmax(dim=-1)

        if self.only_attend_immediate_media:
            # any text without a preceding media needs to have attention zeroed out
            text_without_media_mask = (text_time == 0)[:, None, :, None]
            attn = attn.masked_fill(text_without_media_mask, 0.0)

        out = torch.einsum("bhij,bhjd->bhid", attn, v)
        out = out.transpose(1, 2).reshape(b, x.shape[1], -1)
        return self.to_out(out)


dim = 32
layer = MaskedCrossAttention(dim)
lm_head = nn.Linear(dim, 50)
opt = torch.optim.Adam(list(layer.parameters()) + list(lm_head.parameters()), lr=1e-3)

for step in range(3):
    text = torch.randn(2, 10, dim)
    media = torch.randn(2, 2, 3, dim)
    media_locations = torch.zeros(2, 10, dtype=torch.bool)
    media_locations[:, 2] = True
    media_locations[:, 6] = True
    targets = torch.randint(0, 50, (2, 10))
    h = text + layer(text, media, media_locations)
    loss = F.cross_entropy(lm_head(h).reshape(-1, 50), targets.reshape(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step}: loss {loss.item():.4f}")
