# source: GitHub issue pattern in transformer re-implementations: zeroing padded keys with attn.masked_fill_(mask, 0) *after* softmax raises "output 0 of SoftmaxBackward0 ... modified by an inplace operation"
# softmax saves its output for backward; masked_fill_ on that output bumps its version
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class MaskedSelfAttention(nn.Module):
    def __init__(self, d_model):
        super().__init__()
        self.d_model = d_model
        self.q_proj = nn.Linear(d_model, d_model)
        self.k_proj = nn.Linear(d_model, d_model)
        self.v_proj = nn.Linear(d_model, d_model)
        self.out_proj = nn.Linear(d_model, d_model)

    def forward(self, x, key_padding_mask):
        q, k, v = self.q_proj(x), self.k_proj(x), self.v_proj(x)
        scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(self.d_model)
        attn = F.softmax(scores, dim=-1)
        # make sure padded positions get exactly zero weight
        attn.masked_fill_(key_padding_mask[:, None, :], 0.0)  # culprit
        return self.out_proj(torch.matmul(attn, v))


class TinyEncoder(nn.Module):
    def __init__(self, vocab=20, d_model=8, num_classes=3):
        super().__init__()
        self.emb = nn.Embedding(vocab, d_model, padding_idx=0)
        self.attn = MaskedSelfAttention(d_model)
        self.cls = nn.Linear(d_model, num_classes)

    def forward(self, tokens):
        pad = tokens.eq(0)
        h = self.emb(tokens)
        h = h + self.attn(h, pad)
        return self.cls(h.mean(dim=1))


tokens = torch.tensor([[5, 7, 2, 0, 0], [3, 9, 11, 4, 1]])
labels = torch.tensor([2, 0])
model = TinyEncoder()
loss = F.cross_entropy(model(tokens), labels)
loss.backward()
print("loss", loss.item())
