# source: toy transformer encoder layer written from scratch (annotated-transformer style attention helper)
# helper returns raw q @ k^T scores; caller scales and masks them in place (div_, masked_fill_) before softmax
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

D_MODEL, N_HEADS, VOCAB = 16, 2, 25


def attention_scores(q, k):
    return q @ k.transpose(-2, -1)


class SelfAttention(nn.Module):
    def __init__(self):
        super().__init__()
        self.qkv = nn.Linear(D_MODEL, 3 * D_MODEL)
        self.proj = nn.Linear(D_MODEL, D_MODEL)

    def forward(self, x, pad_mask):
        B, T, _ = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, N_HEADS, D_MODEL // N_HEADS).permute(2, 0, 3, 1, 4)
        scores = attention_scores(q, k)
        scores.div_(math.sqrt(D_MODEL // N_HEADS))
        scores.masked_fill_(pad_mask[:, None, None, :], float("-inf"))
        attn = scores.softmax(dim=-1)
        out = (attn @ v).transpose(1, 2).reshape(B, T, D_MODEL)
        return self.proj(out)


class TinyEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, D_MODEL)
        self.attn = SelfAttention()
        self.ln = nn.LayerNorm(D_MODEL)
        self.cls = nn.Linear(D_MODEL, 2)

    def forward(self, tokens, pad_mask):
        x = self.emb(tokens)
        x = self.ln(x + self.attn(x, pad_mask))
        x = x.masked_fill(pad_mask[..., None], 0.0)
        return self.cls(x.sum(1) / (~pad_mask).sum(1, keepdim=True))


def train(steps=3, batch=4, T=7):
    model = TinyEncoder()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(steps):
        tokens = torch.randint(1, VOCAB, (batch, T))
        lengths = torch.randint(2, T + 1, (batch,))
        pad_mask = torch.arange(T)[None] >= lengths[:, None]
        y = torch.randint(0, 2, (batch,))
        loss = F.cross_entropy(model(tokens, pad_mask), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step}: loss={loss.item():.4f}")


if __name__ == "__main__":
    train()
