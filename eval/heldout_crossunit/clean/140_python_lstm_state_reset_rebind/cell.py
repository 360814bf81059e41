import torch
import torch.nn as nn


class PyLSTMCell(nn.Module):
    """LSTM cell with an output-gate peephole on the new cell state."""

    def __init__(self, nin, nh):
        super().__init__()
        self.ih = nn.Linear(nin, 4 * nh)
        self.hh = nn.Linear(nh, 4 * nh)
        self.w_co = nn.Parameter(torch.full((nh,), 0.1))

    def forward(self, x, state):
        h, c = state
        gates = self.ih(x) + self.hh(h)
        i, f, g, o = gates.chunk(4, 1)
        c = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
        h = torch.sigmoid(o + self.w_co * c) * torch.tanh(c)
        return [h, c]
