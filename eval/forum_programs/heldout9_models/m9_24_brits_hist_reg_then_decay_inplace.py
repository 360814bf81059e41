# source: BRITS / RITS (caow13/BRITS models/rits.py) recurrent imputation, with the hidden decay moved after the history regression
# RITS imputation RNN: the history regression reads h, then h is decayed in place before the LSTMCell step.
import torch
import torch.nn as nn
import torch.nn.functional as F


class TemporalDecay(nn.Module):
    def __init__(self, n_in, n_out):
        super().__init__()
        self.lin = nn.Linear(n_in, n_out)

    def forward(self, d):
        return torch.exp(-F.relu(self.lin(d)))


class RITS(nn.Module):
    def __init__(self, n_feat=5, hidden=16):
        super().__init__()
        self.hidden = hidden
        self.rnn_cell = nn.LSTMCell(2 * n_feat, hidden)
        self.temp_decay_h = TemporalDecay(n_feat, hidden)
        self.hist_reg = nn.Linear(hidden, n_feat)
        self.out = nn.Linear(hidden, 1)

    def forward(self, values, masks, deltas):
        B, T, _ = values.shape
        h, c = torch.zeros(B, self.hidden), torch.zeros(B, self.hidden)
        x_loss, imputations = 0.0, []
        for t in range(T):
            x, m, d = values[:, t], masks[:, t], deltas[:, t]
            gamma_h = self.temp_decay_h(d)
            x_h = self.hist_reg(h)
            h *= gamma_h  # culprit
            x_loss = x_loss + torch.sum(torch.abs(x - x_h) * m) / (torch.sum(m) + 1e-5)
            x_c = m * x + (1 - m) * x_h
            h, c = self.rnn_cell(torch.cat([x_c, m], dim=1), (h, c))
            imputations.append(x_c)
        return self.out(h).squeeze(-1), x_loss / T, torch.stack(imputations, 1)


torch.manual_seed(0)
values = torch.randn(4, 6, 5)
masks = (torch.rand(4, 6, 5) > 0.25).float()
deltas = torch.rand(4, 6, 5)
labels = torch.tensor([1.0, 0.0, 0.0, 1.0])
model = RITS()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
logit, x_loss, _ = model(values * masks, masks, deltas)
loss = x_loss + 0.3 * F.binary_cross_entropy_with_logits(logit, labels)
opt.zero_grad()
loss.backward()
opt.step()
print(loss.item())
