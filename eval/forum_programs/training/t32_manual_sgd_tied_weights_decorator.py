# intended: safe
# Tiny LM with tied embedding / output weights, trained with a hand-written SGD
# step in a @torch.no_grad() helper (the tied parameter is updated once).
import torch
from torch import nn
import torch.nn.functional as F


class TinyLM(nn.Module):
    def __init__(self, vocab=20, dim=8):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.proj = nn.Linear(dim, dim)
        self.out = nn.Linear(dim, vocab, bias=False)
        self.out.weight = self.emb.weight

    def forward(self, tok):
        return self.out(torch.tanh(self.proj(self.emb(tok))))


@torch.no_grad()
def sgd_step(model, lr, momentum_buf, mu=0.9):
    for name, p in model.named_parameters():
        if p.grad is None:
            continue
        buf = momentum_buf.setdefault(name, torch.zeros_like(p))
        buf.mul_(mu).add_(p.grad)
        p.add_(buf, alpha=-lr)
        p.grad = None


def main():
    torch.manual_seed(0)
    lm = TinyLM()
    seq = torch.randint(0, 20, (4, 9))
    bufs = {}
    for step in range(3):
        logits = lm(seq[:, :-1])
        loss = F.cross_entropy(logits.reshape(-1, 20), seq[:, 1:].reshape(-1))
        loss.backward()
        sgd_step(lm, 0.5, bufs)
        print(step, loss.item(), len(bufs))


if __name__ == "__main__":
    main()
