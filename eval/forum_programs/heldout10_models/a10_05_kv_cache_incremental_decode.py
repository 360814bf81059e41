# source: GPT-style incremental decoding with a preallocated KV cache (HF transformers StaticCache / llama style)
# per-step keys/values written in place into a cache buffer whose views were already used by q @ k^T and attn @ v
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class PlainSGD:
    """Minimal SGD(+momentum) so the script does not pay torch.optim's start-up cost."""

    def __init__(self, params, lr=0.01, momentum=0.0):
        self.params = list(params)
        self.lr, self.momentum = lr, momentum
        self.bufs = [None] * len(self.params)

    def zero_grad(self):
        for p in self.params:
            p.grad = None

    @torch.no_grad()
    def step(self):
        for i, p in enumerate(self.params):
            if p.grad is None:
                continue
            d = p.grad
            if self.momentum:
                if self.bufs[i] is None:
                    self.bufs[i] = d.clone()
                else:
                    self.bufs[i].mul_(self.momentum).add_(d)
                d = self.bufs[i]
            p.add_(d, alpha=-self.lr)


class CachedSelfAttention(nn.Module):
    def __init__(self, d_model, heads, max_len, batch):
        super().__init__()
        self.h = heads
        self.dh = d_model // heads
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.proj = nn.Linear(d_model, d_model)
        self.register_buffer(
            "kv_cache", torch.zeros(2, batch, heads, max_len, self.dh), persistent=False
        )

    def reset_cache(self):
        self.kv_cache.zero_()

    def forward(self, x_t, pos):
        B, _, C = x_t.shape
        q, k, v = self.qkv(x_t).split(C, dim=-1)
        q = q.view(B, 1, self.h, self.dh).transpose(1, 2)
        k = k.view(B, 1, self.h, self.dh).transpose(1, 2)
        v = v.view(B, 1, self.h, self.dh).transpose(1, 2)
        self.kv_cache[:, :, :, pos] = torch.stack([k, v])[:, :, :, 0]  # culprit
        keys = self.kv_cache[0, :, :, : pos + 1]
        vals = self.kv_cache[1, :, :, : pos + 1]
        att = (q @ keys.transpose(-2, -1)) / math.sqrt(self.dh)
        att = att.softmax(dim=-1)
        y = (att @ vals).transpose(1, 2).reshape(B, 1, C)
        return self.proj(y)


class DecoderBlock(nn.Module):
    def __init__(self, d_model, heads, max_len, batch):
        super().__init__()
        self.ln1 = nn.LayerNorm(d_model)
        self.attn = CachedSelfAttention(d_model, heads, max_len, batch)
        self.ln2 = nn.LayerNorm(d_model)
        self.mlp = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.GELU(), nn.Linear(4 * d_model, d_model))

    def forward(self, x_t, pos):
        x_t = x_t + self.attn(self.ln1(x_t), pos)
        return x_t + self.mlp(self.ln2(x_t))


class TinyGPT(nn.Module):
    def __init__(self, vocab=30, d_model=32, heads=4, layers=2, max_len=8, batch=2):
        super().__init__()
        self.wte = nn.Embedding(vocab, d_model)
        self.wpe = nn.Embedding(max_len, d_model)
        self.blocks = nn.ModuleList(DecoderBlock(d_model, heads, max_len, batch) for _ in range(layers))
        self.ln_f = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, vocab, bias=False)

    def step(self, tok, pos):
        x = self.wte(tok)[:, None] + self.wpe.weight[pos]
        for blk in self.blocks:
            x = blk(x, pos)
        return self.head(self.ln_f(x))[:, 0]

    def forward_incremental(self, ids):
        for blk in self.blocks:
            blk.attn.reset_cache()
        logits = [self.step(ids[:, t], t) for t in range(ids.size(1))]
        return torch.stack(logits, dim=1)


if __name__ == "__main__":
    model = TinyGPT()
    ids = torch.randint(0, 30, (2, 8))
    opt = PlainSGD(model.parameters(), lr=0.001)
    logits = model.forward_incremental(ids[:, :-1])
    loss = F.cross_entropy(logits.reshape(-1, 30), ids[:, 1:].reshape(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
    print("loss", loss.item())
