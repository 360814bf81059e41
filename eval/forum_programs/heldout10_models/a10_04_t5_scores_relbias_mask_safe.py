# source: HuggingFace transformers T5Attention (relative position bias, causal decoder self-attention)
# relative-position bias added in place to q @ k^T scores and causal mask filled in place BEFORE softmax
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


def relative_position_bucket(relative_position, bidirectional=False, num_buckets=16, max_distance=32):
    relative_buckets = torch.zeros_like(relative_position)
    if bidirectional:
        num_buckets //= 2
        relative_buckets += (relative_position > 0).to(torch.long) * num_buckets
        relative_position = torch.abs(relative_position)
    else:
        relative_position = -torch.min(relative_position, torch.zeros_like(relative_position))
    max_exact = num_buckets // 2
    is_small = relative_position < max_exact
    large = max_exact + (
        torch.log(relative_position.float().clamp(min=1) / max_exact)
        / math.log(max_distance / max_exact)
        * (num_buckets - max_exact)
    ).to(torch.long)
    large = torch.min(large, torch.full_like(large, num_buckets - 1))
    relative_buckets += torch.where(is_small, relative_position, large)
    return relative_buckets


class T5Attention(nn.Module):
    def __init__(self, d_model, heads, has_relative_bias, num_buckets=16):
        super().__init__()
        self.h = heads
        self.dk = d_model // heads
        self.q = nn.Linear(d_model, d_model, bias=False)
        self.k = nn.Linear(d_model, d_model, bias=False)
        self.v = nn.Linear(d_model, d_model, bias=False)
        self.o = nn.Linear(d_model, d_model, bias=False)
        self.num_buckets = num_buckets
        self.rel_bias = nn.Embedding(num_buckets, heads) if has_relative_bias else None

    def compute_bias(self, T):
        ctx = torch.arange(T)[:, None]
        mem = torch.arange(T)[None, :]
        buckets = relative_position_bucket(mem - ctx, num_buckets=self.num_buckets)
        return self.rel_bias(buckets).permute(2, 0, 1).unsqueeze(0)  # (1, H, T, T)

    def forward(self, x, position_bias=None):
        B, T, C = x.shape
        shape = lambda t: t.view(B, T, self.h, self.dk).transpose(1, 2)
        q, k, v = shape(self.q(x)), shape(self.k(x)), shape(self.v(x))
        scores = torch.matmul(q, k.transpose(3, 2))
        if position_bias is None:
            position_bias = self.compute_bias(T)
        # matmul keeps q and k, not its output: editing scores is fine
        scores += position_bias
        causal = torch.ones(T, T, dtype=torch.bool).triu(1)
        scores.masked_fill_(causal, -1e4)
        attn = F.softmax(scores.float(), dim=-1).type_as(scores)
        attn = F.dropout(attn, p=0.1, training=self.training)
        out = torch.matmul(attn, v).transpose(1, 2).reshape(B, T, C)
        return self.o(out), position_bias


class T5Block(nn.Module):
    def __init__(self, d_model, heads, first):
        super().__init__()
        self.ln1 = nn.LayerNorm(d_model)
        self.attn = T5Attention(d_model, heads, has_relative_bias=first)
        self.ln2 = nn.LayerNorm(d_model)
        self.wi = nn.Linear(d_model, 4 * d_model, bias=False)
        self.wo = nn.Linear(4 * d_model, d_model, bias=False)

    def forward(self, x, position_bias):
        a, position_bias = self.attn(self.ln1(x), position_bias)
        x = x + a
        x = x + self.wo(F.relu(self.wi(self.ln2(x))))
        return x, position_bias


class T5DecoderLM(nn.Module):
    def __init__(self, vocab=40, d_model=32, heads=4, layers=3):
        super().__init__()
        self.embed = nn.Embedding(vocab, d_model)
        self.blocks = nn.ModuleList(T5Block(d_model, heads, first=(i == 0)) for i in range(layers))
        self.ln_f = nn.LayerNorm(d_model)
        self.lm_head = nn.Linear(d_model, vocab, bias=False)

    def forward(self, ids):
        x = self.embed(ids)
        bias = None
        for blk in self.blocks:
            x, bias = blk(x, bias)
        return self.lm_head(self.ln_f(x))


if __name__ == "__main__":
    model = T5DecoderLM()
    opt = PlainSGD(model.parameters(), lr=0.001)
    ids = torch.randint(0, 40, (2, 10))
    for step in range(2):
        logits = model(ids[:, :-1])
        loss = F.cross_entropy(logits.reshape(-1, logits.size(-1)), ids[:, 1:].reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(step, loss.item())
