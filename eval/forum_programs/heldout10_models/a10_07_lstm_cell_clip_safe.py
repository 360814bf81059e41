# source: TF-style LSTMCell with cell_clip / proj_clip (ELMo / AllenNLP LstmCellWithProjection) in plain torch
# cell state clamped in place after h = o * tanh(c) (tanh keeps its output, not c); h clamped in place before it is used
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


class ClippedLSTMCell(nn.Module):
    def __init__(self, inp, hid, cell_clip=3.0, proj_clip=2.0):
        super().__init__()
        self.x2g = nn.Linear(inp, 4 * hid)
        self.h2g = nn.Linear(hid, 4 * hid, bias=False)
        self.cell_clip = cell_clip
        self.proj_clip = proj_clip

    def forward(self, x, state):
        h_prev, c_prev = state
        gates = self.x2g(x) + self.h2g(h_prev)
        i, f, g, o = gates.chunk(4, 1)
        c = torch.sigmoid(f) * c_prev + torch.sigmoid(i) * torch.tanh(g)
        h = torch.sigmoid(o) * torch.tanh(c)
        c.clamp_(-self.cell_clip, self.cell_clip)
        h.clamp_(-self.proj_clip, self.proj_clip)
        return h, c


class BiLMEncoder(nn.Module):
    def __init__(self, vocab=30, emb=12, hid=20):
        super().__init__()
        self.embed = nn.Embedding(vocab, emb)
        self.fwd = ClippedLSTMCell(emb, hid)
        self.bwd = ClippedLSTMCell(emb, hid)
        self.hid = hid
        self.softmax_proj = nn.Linear(hid, vocab)

    def run_direction(self, cell, xs, reverse):
        B, T, _ = xs.shape
        h = xs.new_zeros(B, self.hid)
        c = xs.new_zeros(B, self.hid)
        outs = [None] * T
        steps = range(T - 1, -1, -1) if reverse else range(T)
        for t in steps:
            h, c = cell(xs[:, t], (h, c))
            outs[t] = h
        return torch.stack(outs, 1)

    def forward(self, ids):
        xs = self.embed(ids)
        return self.run_direction(self.fwd, xs, False), self.run_direction(self.bwd, xs, True)


def bilm_loss(model, ids):
    hf, hb = model(ids)
    lf = model.softmax_proj(hf[:, :-1]).reshape(-1, 30)
    lb = model.softmax_proj(hb[:, 1:]).reshape(-1, 30)
    return F.cross_entropy(lf, ids[:, 1:].reshape(-1)) + F.cross_entropy(lb, ids[:, :-1].reshape(-1))


if __name__ == "__main__":
    model = BiLMEncoder()
    opt = PlainSGD(model.parameters(), lr=0.2)
    for step in range(2):
        ids = torch.randint(0, 30, (4, 7))
        loss = bilm_loss(model, ids)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(step, loss.item())
