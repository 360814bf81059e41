# source: custom LSTM cell for a sequence classifier (ported from a fused-kernel reference implementation)
# gates.chunk(4, 1); sigmoid gates out of place but the candidate gate activated in place with g.tanh_() on a chunk view
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

IN_DIM, HIDDEN, N_CLASSES = 6, 16, 3


class LSTMCell(nn.Module):
    def __init__(self, inp, hid):
        super().__init__()
        self.ih = nn.Linear(inp, 4 * hid)
        self.hh = nn.Linear(hid, 4 * hid, bias=False)

    def forward(self, x, state):
        h, c = state
        gates = self.ih(x) + self.hh(h)
        i, f, g, o = gates.chunk(4, 1)
        i, f, o = i.sigmoid(), f.sigmoid(), o.sigmoid()
        g.tanh_()  # culprit
        c = f * c + i * g
        h = o * torch.tanh(c)
        return h, c


class SeqClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.cell = LSTMCell(IN_DIM, HIDDEN)
        self.fc = nn.Linear(HIDDEN, N_CLASSES)

    def forward(self, seq):
        T, B, _ = seq.shape
        h = torch.zeros(B, HIDDEN)
        c = torch.zeros(B, HIDDEN)
        for t in range(T):
            h, c = self.cell(seq[t], (h, c))
        return self.fc(h)


def train(steps=3, batch=4, T=5):
    model = SeqClassifier()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(steps):
        seq = torch.randn(T, batch, IN_DIM)
        y = torch.randint(0, N_CLASSES, (batch,))
        loss = F.cross_entropy(model(seq), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step}: loss={loss.item():.4f}")


if __name__ == "__main__":
    train()
