# source: HuggingFace DynamicCache (torch.cat growing past_key_values) in a GPT-style decoder
# description: cache grows by torch.cat, so earlier saved keys are never overwritten; runs cleanly
import torch
import torch.nn as nn


class DynamicCache:
    def __init__(self):
        self.key_cache = None
        self.value_cache = None

    def update(self, k, v):
        if self.key_cache is None:
            self.key_cache, self.value_cache = k[:, None], v[:, None]
        else:
            self.key_cache = torch.cat([self.key_cache, k[:, None]], dim=1)
            self.value_cache = torch.cat([self.value_cache, v[:, None]], dim=1)
        return self.key_cache, self.value_cache


class DecoderAttention(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.wq = nn.Linear(dim, dim, bias=False)
        self.wk = nn.Linear(dim, dim, bias=False)
        self.wv = nn.Linear(dim, dim, bias=False)
        self.wo = nn.Linear(dim, dim, bias=False)
        self.scale = dim ** -0.5

    def forward(self, x_t, cache):
        q = self.wq(x_t)
        keys, values = cache.update(self.wk(x_t), self.wv(x_t))
        att = torch.einsum("bd,btd->bt", q, keys) * self.scale
        att = att.softmax(-1)
        out = torch.einsum("bt,btd->bd", att, values)
        return self.wo(out)


if __name__ == "__main__":
    torch.manual_seed(0)
    B, T, D = 2, 4, 8
    layer = DecoderAttention(D)
    cache = DynamicCache()
    xs = torch.randn(T, B, D)
    outs = [layer(xs[t], cache) for t in range(T)]
    loss = torch.stack(outs).pow(2).mean()
    loss.backward()
