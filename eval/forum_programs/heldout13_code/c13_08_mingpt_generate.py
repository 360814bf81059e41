# source: karpathy/minGPT model.py (CausalSelfAttention with causal bias buffer) plus a KV-cache generate()
# Trains a tiny GPT for a step, then samples tokens with a preallocated key/value cache.
import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class CausalSelfAttention(nn.Module):
    def __init__(self, n_embd, n_head, block_size):
        super().__init__()
        self.c_attn = nn.Linear(n_embd, 3 * n_embd)
        self.c_proj = nn.Linear(n_embd, n_embd)
        self.n_head, self.n_embd = n_head, n_embd
        self.register_buffer("bias", torch.tril(torch.ones(block_size, block_size)).view(1, 1, block_size, block_size))
        self.k_cache = self.v_cache = None

    def setup_cache(self, B, max_len):
        hs = self.n_embd // self.n_head
        self.k_cache = torch.zeros(B, self.n_head, max_len, hs)
        self.v_cache = torch.zeros(B, self.n_head, max_len, hs)

    def forward(self, x, pos=None):
        B, T, C = x.size()
        q, k, v = self.c_attn(x).split(self.n_embd, dim=2)
        k = k.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        q = q.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        v = v.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        if pos is not None:
            self.k_cache[:, :, pos:pos + T] = k
            self.v_cache[:, :, pos:pos + T] = v
            k, v = self.k_cache[:, :, :pos + T], self.v_cache[:, :, :pos + T]
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
        if pos is None:
            att.masked_fill_(self.bias[:, :, :T, :T] == 0, float("-inf"))
        elif T > 1:
            att.masked_fill_(self.bias[:, :, pos:pos + T, :pos + T] == 0, float("-inf"))
        att = F.softmax(att, dim=-1)
        y = (att @ v).transpose(1, 2).contiguous().view(B, T, C)
        return self.c_proj(y)


class Block(nn.Module):
    def __init__(self, n_embd, n_head, block_size):
        super().__init__()
        self.ln_1, self.ln_2 = nn.LayerNorm(n_embd), nn.LayerNorm(n_embd)
        self.attn = CausalSelfAttention(n_embd, n_head, block_size)
        self.mlp = nn.Sequential(nn.Linear(n_embd, 4 * n_embd), nn.GELU(), nn.Linear(4 * n_embd, n_embd))

    def forward(self, x, pos=None):
        x = x + self.attn(self.ln_1(x), pos)
        return x + self.mlp(self.ln_2(x))


class GPT(nn.Module):
    def __init__(self, vocab_size=50, block_size=32, n_embd=32, n_head=4, n_layer=2):
        super().__init__()
        self.block_size = block_size
        self.wte, self.wpe = nn.Embedding(vocab_size, n_embd), nn.Embedding(block_size, n_embd)
        self.h = nn.ModuleList([Block(n_embd, n_head, block_size) for _ in range(n_layer)])
        self.ln_f = nn.LayerNorm(n_embd)
        self.lm_head = nn.Linear(n_embd, vocab_size, bias=False)
        self.lm_head.weight = self.wte.weight

    def forward(self, idx, targets=None, pos=None):
        t = idx.size(1)
        start = 0 if pos is None else pos
        x = self.wte(idx) + self.wpe(torch.arange(start, start + t))
        for block in self.h:
            x = block(x, pos)
        logits = self.lm_head(self.ln_f(x))
        loss = None if targets is None else F.cross_entropy(logits.view(-1, logits.size(-1)), targets.reshape(-1))
        return logits, loss

    @torch.no_grad()
    def generate(self, idx, max_new_tokens, temperature=1.0, top_k=5):
        for block in self.h:
            block.attn.setup_cache(idx.size(0), self.block_size)
        logits, _ = self(idx, pos=0)
        pos = idx.size(1)
        for _ in range(max_new_tokens):
            logits = logits[:, -1, :] / temperature
            v, _ = torch.topk(logits, top_k)
            logits[logits < v[:, [-1]]] = -float("inf")
            idx_next = torch.multinomial(F.softmax(logits, dim=-1), num_samples=1)
            idx = torch.cat((idx, idx_next), dim=1)
            logits, _ = self(idx_next, pos=pos)
            pos += 1
        return idx


torch.manual_seed(0)
model = GPT()
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
data = torch.randint(0, 50, (4, 17))
_, loss = model(data[:, :-1], data[:, 1:])
optimizer.zero_grad()
loss.backward()
optimizer.step()
print("train loss", loss.item())
model.eval()
print(model.generate(data[:1, :4], max_new_tokens=6))
