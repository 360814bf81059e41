"""A greedy-decoding helper method on a tied-embedding decoder with ``max_norm``: ``step()`` looks the
token up (renormalising rows of the shared weight in place) and projects onto the weight (``F.linear``
saves it for ``h``'s gradient). The training loop calls ``step()`` for every position and backpropagates
the summed loss once: the second call's lookup rewrites the weight the first call's projection saved."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TiedDecoder(nn.Module):
    def __init__(self, vocab=12, dim=8):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim, max_norm=1.0)
        self.cell = nn.GRUCell(dim, dim)

    def step(self, token, h):
        e = self.emb(token)  # expect: AGI001
        h = self.cell(e, h)
        logits = F.linear(h, self.emb.weight.clone())
        return logits, h


def run():
    torch.manual_seed(0)
    decoder = TiedDecoder()
    opt = torch.optim.Adam(decoder.parameters(), lr=1e-3)
    seq = torch.randint(0, 12, (3, 5))
    h = torch.zeros(3, 8)
    loss = 0.0
    for t in range(seq.size(1) - 1):
        logits, h = decoder.step(seq[:, t], h)
        loss = loss + F.cross_entropy(logits, seq[:, t + 1])
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss


if __name__ == "__main__":
    print(run())
