# source: "Gated Attention for LLMs" (Qwen, 2025) head-specific gate, on a nanoGPT-style attention written with explicit softmax
# Causal self-attention computed by hand (masked_fill + softmax + matmul); the per-head gate multiplies att @ v in place.
import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class GatedCausalSelfAttention(nn.Module):
    def __init__(self, d_model, n_head, block_size=16):
        super().__init__()
        self.n_head, self.d_head = n_head, d_model // n_head
        self.c_attn = nn.Linear(d_model, 3 * d_model)
        self.gate_proj = nn.Linear(d_model, n_head)
        self.c_proj = nn.Linear(d_model, d_model)
        self.attn_dropout = nn.Dropout(0.1)
        self.register_buffer("bias", torch.tril(torch.ones(block_size, block_size)).view(1, 1, block_size, block_size))

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.c_attn(x).split(C, dim=2)
        q, k, v = (t.view(B, T, self.n_head, self.d_head).transpose(1, 2) for t in (q, k, v))
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(self.d_head))
        att = att.masked_fill(self.bias[:, :, :T, :T] == 0, float("-inf"))
        att = self.attn_dropout(F.softmax(att, dim=-1))
        y = att @ v
        y *= torch.sigmoid(self.gate_proj(x)).transpose(1, 2).unsqueeze(-1)
        return self.c_proj(y.transpose(1, 2).contiguous().view(B, T, C))


class Block(nn.Module):
    def __init__(self, d_model, n_head):
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(d_model), nn.LayerNorm(d_model)
        self.attn = GatedCausalSelfAttention(d_model, n_head)
        self.mlp = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.GELU(), nn.Linear(4 * d_model, d_model))

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.mlp(self.ln2(x))


torch.manual_seed(0)
vocab, d = 50, 32
wte, wpe = nn.Embedding(vocab, d), nn.Embedding(16, d)
blocks = nn.Sequential(Block(d, 4), Block(d, 4))
lm_head = nn.Linear(d, vocab, bias=False)
params = [*wte.parameters(), *wpe.parameters(), *blocks.parameters(), *lm_head.parameters()]
opt = torch.optim.AdamW(params, lr=3e-4)
data = torch.randint(0, vocab, (2, 9))
for _ in range(2):
    x = wte(data[:, :-1]) + wpe(torch.arange(8))
    loss = F.cross_entropy(lm_head(blocks(x)).reshape(-1, vocab), data[:, 1:].reshape(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
print(loss.item())
