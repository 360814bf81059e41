# Source: pytorch/pytorch PR #45595 (doc note: with max_norm, clone Embedding.weight before using it
# in a differentiable op, e.g. b = embedding.weight.clone() @ W.t()).
# Clean look-alike of hazard/048.
# Unit kind: class.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Embedder(nn.Module):
    def __init__(self, vocab, d):
        super().__init__()
        self.emb = nn.Embedding(vocab, d, max_norm=1.0)

    def forward(self, tok):
        return self.emb(tok)


class TiedDecoder(nn.Module):
    def __init__(self, embedder, d):
        super().__init__()
        self.embedder = embedder
        self.cell = nn.GRUCell(d, d)

    def forward(self, x, h):
        h = self.cell(x, h)
        return F.linear(h, self.embedder.emb.weight.clone()), h


embedder = Embedder(10, 8)
decoder = TiedDecoder(embedder, 8)
tokens = torch.tensor([[1, 2], [3, 4], [5, 6]])
h, loss = torch.zeros(2, 8), 0
for t in range(tokens.shape[0] - 1):
    logits, h = decoder(embedder(tokens[t]), h)
    loss = loss + F.cross_entropy(logits, tokens[t + 1])
loss.backward()
print("done")
