# Elman RNN with zoneout on the hidden state, applied in place after the per-step output projection
import torch
import torch.nn as nn


class ZoneoutRNN(nn.Module):
    def __init__(self, n_in, n_h, n_out, p=0.2):
        super().__init__()
        self.cell = nn.RNNCell(n_in, n_h)
        self.proj = nn.Linear(n_h, n_out)
        self.p = p

    def step(self, x, h_prev):
        h = self.cell(x, h_prev)
        y = self.proj(h)
        if self.training:
            keep = (torch.rand_like(h) < self.p).float()
            h.mul_(1 - keep)  # culprit
            h.add_(keep * h_prev)
        return y, h

    def forward(self, xs):
        h = xs.new_zeros(xs.shape[1], self.cell.hidden_size)
        ys = []
        for x in xs:
            y, h = self.step(x, h)
            ys.append(y)
        return torch.stack(ys)


torch.manual_seed(0)
rnn = ZoneoutRNN(2, 3, 2).train()
rnn(torch.randn(3, 2, 2)).sum().backward()
print(rnn.proj.weight.grad.norm())
