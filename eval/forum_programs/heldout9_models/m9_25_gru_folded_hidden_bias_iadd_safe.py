# source: hand-unrolled GRU layer with cuDNN-style bias folding (input projections for all timesteps precomputed once)
# GRU unrolled by hand: r/z hidden biases are folded in place into the precomputed input projections before the time loop.
import torch
import torch.nn as nn
import torch.nn.functional as F


class UnrolledGRU(nn.Module):
    def __init__(self, input_size, hidden_size):
        super().__init__()
        self.hidden_size = hidden_size
        self.weight_ih = nn.Linear(input_size, 3 * hidden_size)
        self.weight_hh = nn.Linear(hidden_size, 3 * hidden_size, bias=False)
        self.bias_hh = nn.Parameter(torch.zeros(3 * hidden_size))

    def forward(self, x, h=None):
        B, T, _ = x.shape
        H = self.hidden_size
        h = x.new_zeros(B, H) if h is None else h
        gi = self.weight_ih(x)
        gi[..., : 2 * H] += self.bias_hh[: 2 * H]
        outputs = []
        for t in range(T):
            i_r, i_z, i_n = gi[:, t].chunk(3, dim=1)
            h_r, h_z, h_n = self.weight_hh(h).chunk(3, dim=1)
            r = torch.sigmoid(i_r + h_r)
            z = torch.sigmoid(i_z + h_z)
            n = torch.tanh(i_n + r * (h_n + self.bias_hh[2 * H:]))
            h = (1 - z) * n + z * h
            outputs.append(h)
        return torch.stack(outputs, dim=1), h


class Encoder(nn.Module):
    def __init__(self, vocab=40, emb=10, hidden=16, n_classes=3):
        super().__init__()
        self.emb = nn.Embedding(vocab, emb, padding_idx=0)
        self.gru = UnrolledGRU(emb, hidden)
        self.fc = nn.Linear(hidden, n_classes)

    def forward(self, tokens):
        out, h_n = self.gru(self.emb(tokens))
        return self.fc(out.max(dim=1).values + h_n)


torch.manual_seed(0)
model = Encoder()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
tokens, labels = torch.randint(1, 40, (4, 7)), torch.tensor([0, 2, 1, 1])
for _ in range(3):
    loss = F.cross_entropy(model(tokens), labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
print(loss.item())
