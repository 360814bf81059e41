# source: common transformer implementations (e.g. "The Annotated Transformer" / minGPT style causal attention) using scores.masked_fill_(mask, -inf) before softmax
# look-alike: masked_fill_ hits the scaled scores, which no op saved; the post-softmax padding mask is applied out of place (att = att * mask)
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class CausalSelfAttention(nn.Module):
    def __init__(self, d_model=8, n_head=2, block_size=6):
        super().__init__()
        self.n_head = n_head
        self.c_attn = nn.Linear(d_model, 3 * d_model)
        self.c_proj = nn.Linear(d_model, d_model)
        self.register_buffer("bias", torch.tril(torch.ones(block_size, block_size)).view(1, 1, block_size, block_size))

    def forward(self, x, key_padding_mask=None):
        B, T, C = x.shape
        q, k, v = self.c_attn(x).split(C, dim=2)
        q = q.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        k = k.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        v = v.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
        att.masked_fill_(self.bias[:, :, :T, :T] == 0, float("-inf"))
        att = F.softmax(att, dim=-1)
        if key_padding_mask is not None:
            att = att * (~key_padding_mask)[:, None, :, None]
        y = (att @ v).transpose(1, 2).contiguous().view(B, T, C)
        return self.c_proj(y)


class TinyGPT(nn.Module):
    def __init__(self, vocab=16, d_model=8, block_size=6):
        super().__init__()
        self.wte = nn.Embedding(vocab, d_model)
        self.wpe = nn.Embedding(block_size, d_model)
        self.attn = CausalSelfAttention(d_model, block_size=block_size)
        self.ln = nn.LayerNorm(d_model)
        self.lm_head = nn.Linear(d_model, vocab, bias=False)

    def forward(self, idx, pad=None):
        pos = torch.arange(idx.size(1))
        x = self.wte(idx) + self.wpe(pos)
        x = x + self.attn(self.ln(x), pad)
        return self.lm_head(x)


model = TinyGPT()
idx = torch.randint(1, 16, (2, 6))
pad = torch.zeros(2, 6, dtype=torch.bool)
pad[0, 4:] = True
logits = model(idx[:, :-1], pad[:, :-1])
loss = F.cross_entropy(logits.reshape(-1, 16), idx[:, 1:].reshape(-1))
loss.backward()
print(loss.item())
