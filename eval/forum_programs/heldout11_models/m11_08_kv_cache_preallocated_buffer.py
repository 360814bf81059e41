# source: LLaMA / GPT-style decoder with a preallocated static KV cache (gpt-fast, HF StaticCache)
# description: keys of step t are copied into a cache buffer that an earlier step's q@k^T already saved, during a multi-step training rollout
import torch
import torch.nn as nn


class KVCache(nn.Module):
    def __init__(self, batch, max_len, dim):
        super().__init__()
        self.register_buffer("kv_cache", torch.zeros(batch, max_len, 2, dim), persistent=False)

    def update(self, pos, k, v):
        self.kv_cache[:, pos] = torch.stack([k, v], dim=1)  # culprit
        kv = self.kv_cache[:, : pos + 1]
        return kv[:, :, 0], kv[:, :, 1]


class DecoderAttention(nn.Module):
    def __init__(self, dim, max_len, batch):
        super().__init__()
        self.wq = nn.Linear(dim, dim, bias=False)
        self.wk = nn.Linear(dim, dim, bias=False)
        self.wv = nn.Linear(dim, dim, bias=False)
        self.wo = nn.Linear(dim, dim, bias=False)
        self.cache = KVCache(batch, max_len, dim)
        self.scale = dim ** -0.5

    def forward(self, x_t, pos):
        q = self.wq(x_t)
        keys, values = self.cache.update(pos, self.wk(x_t), self.wv(x_t))
        att = torch.einsum("bd,btd->bt", q, keys) * self.scale
        att = att.softmax(-1)
        out = torch.einsum("bt,btd->bd", att, values)
        return self.wo(out)


if __name__ == "__main__":
    torch.manual_seed(0)
    B, T, D = 2, 4, 8
    layer = DecoderAttention(D, T, B)
    xs = torch.randn(T, B, D)
    outs = [layer(xs[t], t) for t in range(T)]
    loss = torch.stack(outs).pow(2).mean()
    loss.backward()
