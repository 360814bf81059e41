# intended: AGI001
# Tiny decoder with tied input/output embeddings and max_norm on the embedding,
# trained with teacher forcing one step at a time.
import torch
import torch.nn as nn
import torch.nn.functional as F


class TiedDecoder(nn.Module):
    def __init__(self, vocab=12, dim=8):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim, max_norm=1.0)
        self.cell = nn.GRUCell(dim, dim)

    def step(self, tok, h):
        e = self.emb(tok)  # culprit
        h = self.cell(e, h)
        logits = F.linear(h, self.emb.weight)
        return logits, h


def main():
    torch.manual_seed(0)
    dec = TiedDecoder()
    opt = torch.optim.Adam(dec.parameters(), lr=1e-3)
    seq = torch.randint(0, 12, (3, 5))
    h = torch.zeros(3, 8)
    loss = 0.0
    for t in range(seq.size(1) - 1):
        logits, h = dec.step(seq[:, t], h)
        loss = loss + F.cross_entropy(logits, seq[:, t + 1])
    opt.zero_grad()
    loss.backward()
    opt.step()
    print("loss", loss.item())


if __name__ == "__main__":
    main()
