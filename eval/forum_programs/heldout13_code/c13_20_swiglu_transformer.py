# source: lucidrains-style transformer (PreNorm, rotary embedding, GLU feed-forward with chunk)
# Small causal transformer language model with rotary attention and a SwiGLU feed-forward, one training step.
import torch
import torch.nn as nn
import torch.nn.functional as F


def exists(val):
    return val is not None


class RotaryEmbedding(nn.Module):
    def __init__(self, dim, theta=10000):
        super().__init__()
        inv_freq = 1.0 / (theta ** (torch.arange(0, dim, 2).float() / dim))
        self.register_buffer("inv_freq", inv_freq, persistent=False)

    def forward(self, seq_len):
        t = torch.arange(seq_len).type_as(self.inv_freq)
        freqs = torch.einsum("i,j->ij", t, self.inv_freq)
        return torch.cat((freqs, freqs), dim=-1)


def rotate_half(x):
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat((-x2, x1), dim=-1)


def apply_rotary_pos_emb(pos, t):
    return t * pos.cos() + rotate_half(t) * pos.sin()


class SwiGLU(nn.Module):
    def forward(self, x):
        x, gate = x.chunk(2, dim=-1)
        return x.mul_(F.silu(gate))  # culprit


class FeedForward(nn.Module):
    def __init__(self, dim, mult=4, dropout=0.0):
        super().__init__()
        inner_dim = int(dim * mult * 2 / 3)
        self.net = nn.Sequential(nn.Linear(dim, inner_dim * 2, bias=False), SwiGLU(), nn.Dropout(dropout),
                                 nn.Linear(inner_dim, dim, bias=False))

    def forward(self, x):
        return self.net(x)


class Attention(nn.Module):
    def __init__(self, dim, heads=4, dim_head=16):
        super().__init__()
        self.heads, self.scale = heads, dim_head ** -0.5
        self.to_qkv = nn.Linear(dim, dim_head * heads * 3, bias=False)
        self.to_out = nn.Linear(dim_head * heads, dim, bias=False)

    def forward(self, x, rotary_emb=None):
        b, n, _ = x.shape
        q, k, v = self.to_qkv(x).chunk(3, dim=-1)
        q, k, v = map(lambda t: t.reshape(b, n, self.heads, -1).transpose(1, 2), (q, k, v))
        if exists(rotary_emb):
            q, k = apply_rotary_pos_emb(rotary_emb, q), apply_rotary_pos_emb(rotary_emb, k)
        sim = torch.einsum("b h i d, b h j d -> b h i j", q, k) * self.scale
        causal_mask = torch.ones(n, n, dtype=torch.bool).triu(1)
        sim = sim.masked_fill(causal_mask, -torch.finfo(sim.dtype).max)
        attn = sim.softmax(dim=-1)
        out = torch.einsum("b h i j, b h j d -> b h i d", attn, v)
        return self.to_out(out.transpose(1, 2).reshape(b, n, -1))


class PreNorm(nn.Module):
    def __init__(self, dim, fn):
        super().__init__()
        self.norm, self.fn = nn.LayerNorm(dim), fn

    def forward(self, x, **kwargs):
        return self.fn(self.norm(x), **kwargs)


class TransformerLM(nn.Module):
    def __init__(self, num_tokens=64, dim=32, depth=2, heads=4, dim_head=8):
        super().__init__()
        self.token_emb = nn.Embedding(num_tokens, dim)
        self.rotary = RotaryEmbedding(dim_head)
        self.layers = nn.ModuleList([
            nn.ModuleList([PreNorm(dim, Attention(dim, heads, dim_head)), PreNorm(dim, FeedForward(dim))])
            for _ in range(depth)
        ])
        self.to_logits = nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, num_tokens))

    def forward(self, x):
        rotary_emb = self.rotary(x.shape[1])
        x = self.token_emb(x)
        for attn, ff in self.layers:
            x = attn(x, rotary_emb=rotary_emb) + x
            x = ff(x) + x
        return self.to_logits(x)


torch.manual_seed(0)
model = TransformerLM()
optim = torch.optim.Adam(model.parameters(), lr=3e-4)
seq = torch.randint(0, 64, (2, 17))
inp, target = seq[:, :-1], seq[:, 1:]
logits = model(inp)
loss = F.cross_entropy(logits.transpose(1, 2), target)
loss.backward()
optim.step()
optim.zero_grad()
print("loss", loss.item())
