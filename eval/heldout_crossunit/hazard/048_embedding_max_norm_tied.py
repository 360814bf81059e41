# Source: pytorch/pytorch#26596 ("nn.Embedding with max_norm shows unstable behavior and causes
# sometimes runtime error") and PR #45595 (doc note: with max_norm, Embedding's forward modifies
# weight in place, so a differentiable use of Embedding.weight before forward needs a clone).
# Unit kind: class -- TiedDecoder saves the embedding weight; the next Embedder call renormalises it.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Embedder(nn.Module):
    def __init__(self, vocab, d):
        super().__init__()
        self.emb = nn.Embedding(vocab, d, max_norm=1.0)  # culprit

    def forward(self, tok):
        return self.emb(tok)


class TiedDecoder(nn.Module):
    def __init__(self, embedder, d):
        super().__init__()
        self.embedder = embedder
        self.cell = nn.GRUCell(d, d)

    def forward(self, x, h):
        h = self.cell(x, h)
        return F.linear(h, self.embedder.emb.weight), h


embedder = Embedder(10, 8)
decoder = TiedDecoder(embedder, 8)
tokens = torch.tensor([[1, 2], [3, 4], [5, 6]])
h, loss = torch.zeros(2, 8), 0
for t in range(tokens.shape[0] - 1):
    logits, h = decoder(embedder(tokens[t]), h)
    loss = loss + F.cross_entropy(logits, tokens[t + 1])
loss.backward()
print("done")
