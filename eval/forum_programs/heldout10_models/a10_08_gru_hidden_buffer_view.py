# source: hand-written GRU encoder (seq2seq tutorial / speech encoder style) with a preallocated hidden-state buffer
# h_prev is a view hs[t] of the buffer, used by z * h_prev and hh(h_prev); the new state is written into hs[t + 1]
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


class GRUCellManual(nn.Module):
    def __init__(self, inp, hid):
        super().__init__()
        self.x_rz = nn.Linear(inp, 2 * hid)
        self.h_rz = nn.Linear(hid, 2 * hid, bias=False)
        self.x_n = nn.Linear(inp, hid)
        self.h_n = nn.Linear(hid, hid)

    def forward(self, x, h_prev):
        r, z = torch.sigmoid(self.x_rz(x) + self.h_rz(h_prev)).chunk(2, dim=-1)
        n = torch.tanh(self.x_n(x) + r * self.h_n(h_prev))
        return (1 - z) * n + z * h_prev


class GRUEncoder(nn.Module):
    def __init__(self, inp, hid):
        super().__init__()
        self.cell = GRUCellManual(inp, hid)
        self.hid = hid

    def forward(self, xs, h0=None):
        B, T, _ = xs.shape
        hs = xs.new_zeros(T + 1, B, self.hid)
        if h0 is not None:
            hs[0] = h0
        for t in range(T):
            h_prev = hs[t]
            h = self.cell(xs[:, t], h_prev)
            hs[t + 1] = h  # culprit
        return hs[1:].transpose(0, 1), hs[-1]


class SequenceClassifier(nn.Module):
    def __init__(self, inp=6, hid=16, classes=4):
        super().__init__()
        self.encoder = GRUEncoder(inp, hid)
        self.attn = nn.Linear(hid, 1)
        self.out = nn.Linear(hid, classes)

    def forward(self, xs):
        outs, last = self.encoder(xs)
        w = torch.softmax(self.attn(outs).squeeze(-1), dim=1)
        pooled = (w[..., None] * outs).sum(1) + last
        return self.out(pooled)


if __name__ == "__main__":
    model = SequenceClassifier()
    xs = torch.randn(3, 5, 6)
    y = torch.tensor([1, 0, 3])
    opt = PlainSGD(model.parameters(), lr=0.01)
    loss = F.cross_entropy(model(xs), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print("loss", loss.item())
