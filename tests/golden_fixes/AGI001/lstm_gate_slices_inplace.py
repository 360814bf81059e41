"""An LSTM cell activating its gates in place on slices of one tensor. Each ``sigmoid_``/``tanh_`` saves its
output, and the next in-place activation bumps the version counter the slices share, so each later
activation line independently makes an earlier gate's saved output stale. (With ``gates.chunk(4)`` torch
refuses even the first in-place activation: outputs of multi-view ops may not be modified in place.)"""
import torch
from torch import nn


class LSTMCell(nn.Module):
    def __init__(self, inp, hidden):
        super().__init__()
        self.hidden = hidden
        self.ih = nn.Linear(inp, 4 * hidden)
        self.hh = nn.Linear(hidden, 4 * hidden)

    def forward(self, x, h, c):
        gates = self.ih(x) + self.hh(h)
        n = self.hidden
        i, f, g, o = gates[:, :n], gates[:, n : 2 * n], gates[:, 2 * n : 3 * n], gates[:, 3 * n :]
        i.sigmoid_()
        f = f.sigmoid()  # expect: AGI001
        g = g.tanh()  # expect: AGI001
        o = o.sigmoid()  # expect: AGI001
        c = f * c + i * g
        h = o * torch.tanh(c)
        return h, c


def run():
    torch.manual_seed(0)
    cell = LSTMCell(3, 2)
    h = torch.zeros(1, 2)
    c = torch.zeros(1, 2)
    h, c = cell(torch.randn(1, 3), h, c)
    h.sum().backward()
    return h, c


if __name__ == "__main__":
    print(run())
