# source: hand-unrolled LSTM language model with variational (recurrent) dropout, AWD-LSTM / fairseq LSTM style
# hidden state h feeds the output projection, then the recurrent dropout mask is applied to h in place for the next step
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class PlainSGD:
    """Minimal SGD(+momentum) so the script does not pay torch.optim's start-up cost."""

    def __init__(self, params, lr=0.01, momentum=0.0):
        self.params = list(params)
        self.lr, self.momentum = lr, momentum
        self.bufs = [None] * len(self.params)

    def zero_grad(self):
        for p in self.params:
            p.grad = None

    @torch.no_grad()
    def step(self):
        for i, p in enumerate(self.params):
            if p.grad is None:
                continue
            d = p.grad
            if self.momentum:
                if self.bufs[i] is None:
                    self.bufs[i] = d.clone()
                else:
                    self.bufs[i].mul_(self.momentum).add_(d)
                d = self.bufs[i]
            p.add_(d, alpha=-self.lr)


class LSTMCellManual(nn.Module):
    def __init__(self, inp, hid):
        super().__init__()
        self.ih = nn.Linear(inp, 4 * hid)
        self.hh = nn.Linear(hid, 4 * hid, bias=False)

    def forward(self, x, h, c):
        gates = self.ih(x) + self.hh(h)
        i, f, g, o = gates.chunk(4, dim=1)
        i, f, o = torch.sigmoid(i), torch.sigmoid(f), torch.sigmoid(o)
        g = torch.tanh(g)
        c = f * c + i * g
        h = o * torch.tanh(c)
        return h, c


class RecurrentDropoutLM(nn.Module):
    def __init__(self, vocab=25, emb=16, hid=24, p=0.3):
        super().__init__()
        self.embed = nn.Embedding(vocab, emb)
        self.cell = LSTMCellManual(emb, hid)
        self.proj = nn.Linear(hid, vocab)
        self.hid = hid
        self.p = p

    def forward(self, ids):
        B, T = ids.shape
        xs = self.embed(ids)
        h = xs.new_zeros(B, self.hid)
        c = xs.new_zeros(B, self.hid)
        mask = None
        if self.training and self.p > 0:
            mask = torch.bernoulli(xs.new_full((B, self.hid), 1 - self.p)) / (1 - self.p)
        logits = []
        for t in range(T):
            h, c = self.cell(xs[:, t], h, c)
            logits.append(self.proj(h))
            if mask is not None:
                h.mul_(mask)  # culprit
        return torch.stack(logits, dim=1)


def lm_loss(model, ids):
    logits = model(ids[:, :-1])
    return F.cross_entropy(logits.reshape(-1, logits.size(-1)), ids[:, 1:].reshape(-1))


if __name__ == "__main__":
    model = RecurrentDropoutLM()
    opt = PlainSGD(model.parameters(), lr=0.5)
    ids = torch.randint(0, 25, (3, 9))
    model.train()
    loss = lm_loss(model, ids)
    opt.zero_grad()
    loss.backward()
    nn.utils.clip_grad_norm_(model.parameters(), 0.25)
    opt.step()
    print("loss", loss.item())
