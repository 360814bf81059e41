"""A recurrent cell whose packed state is unbound into (h, c) and decayed in place: ``unbind`` outputs
are views torch will not let you modify in place while they require grad."""
import torch
from torch import nn


class DecayingCell(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.cell = nn.LSTMCell(dim, dim)

    def forward(self, x, state):
        h, c = state.unbind(0)
        c = c.mul(0.9)  # expect: AGI003
        h, c = self.cell(x, (h, c))
        return torch.stack([h, c])


def run():
    torch.manual_seed(0)
    cell = DecayingCell(3)
    state = torch.zeros(2, 2, 3)
    for step in range(2):
        state = cell(torch.randn(2, 3), state)
    state.sum().backward()
    return state
