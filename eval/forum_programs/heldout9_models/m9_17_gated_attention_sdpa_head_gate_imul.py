# source: "Gated Attention for LLMs" (Qwen, 2025) head-specific sigmoid gate on the SDPA output, applied in place before merging heads
# Causal decoder block: the per-head sigmoid gate multiplies the scaled_dot_product_attention output in place.
import torch
import torch.nn as nn
import torch.nn.functional as F


class GatedCausalSelfAttention(nn.Module):
    def __init__(self, d_model, n_head):
        super().__init__()
        self.n_head, self.d_head = n_head, d_model // n_head
        self.qkv = nn.Linear(d_model, 3 * d_model, bias=False)
        self.gate_proj = nn.Linear(d_model, n_head, bias=True)
        self.o_proj = nn.Linear(d_model, d_model, bias=False)

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.n_head, self.d_head).permute(2, 0, 3, 1, 4)
        out = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        gate = torch.sigmoid(self.gate_proj(x)).transpose(1, 2).unsqueeze(-1)
        out *= gate  # culprit
        return self.o_proj(out.transpose(1, 2).reshape(B, T, C))


class Block(nn.Module):
    def __init__(self, d_model, n_head):
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(d_model), nn.LayerNorm(d_model)
        self.attn = GatedCausalSelfAttention(d_model, n_head)
        self.mlp = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.GELU(), nn.Linear(4 * d_model, d_model))

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.mlp(self.ln2(x))


class TinyLM(nn.Module):
    def __init__(self, vocab=50, d_model=32, n_head=4, n_layer=2, block_size=16):
        super().__init__()
        self.wte, self.wpe = nn.Embedding(vocab, d_model), nn.Embedding(block_size, d_model)
        self.blocks = nn.ModuleList([Block(d_model, n_head) for _ in range(n_layer)])
        self.ln_f = nn.LayerNorm(d_model)
        self.lm_head = nn.Linear(d_model, vocab, bias=False)

    def forward(self, idx):
        x = self.wte(idx) + self.wpe(torch.arange(idx.size(1)))
        for blk in self.blocks:
            x = blk(x)
        return self.lm_head(self.ln_f(x))


torch.manual_seed(0)
model = TinyLM()
opt = torch.optim.AdamW(model.parameters(), lr=3e-4)
data = torch.randint(0, 50, (2, 9))
logits = model(data[:, :-1])
loss = F.cross_entropy(logits.reshape(-1, 50), data[:, 1:].reshape(-1))
opt.zero_grad()
loss.backward()
opt.step()
print(loss.item())
