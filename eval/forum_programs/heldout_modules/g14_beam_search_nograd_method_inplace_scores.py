# Seq2seq model with a beam-search method under @torch.no_grad that edits log-probs in place
import torch
import torch.nn as nn
import torch.nn.functional as F


class TinySeq2Seq(nn.Module):
    def __init__(self, V, d):
        super().__init__()
        self.emb = nn.Embedding(V, d)
        self.cell = nn.GRUCell(d, d)
        self.out = nn.Linear(d, V)
        self.eos = 0

    def forward(self, tgt):
        h = torch.zeros(tgt.shape[0], self.cell.hidden_size)
        logits = []
        for t in range(tgt.shape[1]):
            h = self.cell(self.emb(tgt[:, t]), h)
            logits.append(self.out(h))
        return torch.stack(logits, 1)

    @torch.no_grad()
    def beam_search(self, beam=3, steps=4, min_len=2):
        h = torch.zeros(beam, self.cell.hidden_size)
        tok = torch.full((beam,), 1)
        scores = torch.zeros(beam)
        for step in range(steps):
            h = self.cell(self.emb(tok), h)
            logp = F.log_softmax(self.out(h), -1)
            if step < min_len:
                logp[:, self.eos] = -float("inf")
            logp += scores.unsqueeze(1)
            flat = logp.view(-1)
            scores, idx = flat.topk(beam)
            tok = idx % logp.shape[1]
            h = h[idx // logp.shape[1]]
        return tok, scores


torch.manual_seed(0)
m = TinySeq2Seq(7, 5)
tgt = torch.randint(0, 7, (2, 4))
logits = m(tgt)
hyp = m.beam_search()
F.cross_entropy(logits.reshape(-1, 7), tgt.reshape(-1)).backward()
print(m.out.weight.grad.norm(), hyp[0])
