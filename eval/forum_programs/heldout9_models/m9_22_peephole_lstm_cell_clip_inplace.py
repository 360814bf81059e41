# source: port of TF LSTMCell(use_peepholes=True, cell_clip=...) (Sak et al. 2014 LSTMP) to a hand-unrolled PyTorch cell
# Peephole LSTM unrolled by hand; the cell state is clipped in place after the output-gate peephole has read it.
import torch
import torch.nn as nn
import torch.nn.functional as F


class PeepholeLSTMCell(nn.Module):
    def __init__(self, input_size, hidden_size, cell_clip=3.0):
        super().__init__()
        self.W = nn.Linear(input_size, 4 * hidden_size)
        self.U = nn.Linear(hidden_size, 4 * hidden_size, bias=False)
        self.w_ci = nn.Parameter(torch.randn(hidden_size) * 0.1)
        self.w_cf = nn.Parameter(torch.randn(hidden_size) * 0.1)
        self.w_co = nn.Parameter(torch.randn(hidden_size) * 0.1)
        self.cell_clip = cell_clip

    def forward(self, x, state):
        h, c = state
        i, f, g, o = (self.W(x) + self.U(h)).chunk(4, dim=1)
        i = torch.sigmoid(i + self.w_ci * c)
        f = torch.sigmoid(f + self.w_cf * c + 1.0)
        c = f * c + i * torch.tanh(g)
        o = torch.sigmoid(o + self.w_co * c)
        c.clamp_(-self.cell_clip, self.cell_clip)  # culprit
        h = o * torch.tanh(c)
        return h, (h, c)


class Tagger(nn.Module):
    def __init__(self, vocab=30, emb=8, hidden=16, n_tags=5):
        super().__init__()
        self.emb = nn.Embedding(vocab, emb)
        self.cell = PeepholeLSTMCell(emb, hidden)
        self.out = nn.Linear(hidden, n_tags)
        self.hidden = hidden

    def forward(self, tokens):
        B, T = tokens.shape
        state = (torch.zeros(B, self.hidden), torch.zeros(B, self.hidden))
        outputs = []
        for x_t in self.emb(tokens).unbind(1):
            h, state = self.cell(x_t, state)
            outputs.append(h)
        return self.out(torch.stack(outputs, dim=1))


torch.manual_seed(0)
model = Tagger()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
tokens, tags = torch.randint(0, 30, (3, 7)), torch.randint(0, 5, (3, 7))
loss = F.cross_entropy(model(tokens).flatten(0, 1), tags.flatten())
opt.zero_grad()
loss.backward()
nn.utils.clip_grad_norm_(model.parameters(), 1.0)
opt.step()
print(loss.item())
