"""A leaky recurrent state decayed in place each step: ``tanh`` saved ``h`` and ``h.mul_(decay)`` then
overwrites it."""
import torch
from torch import nn


class LeakyRNN(nn.Module):
    def __init__(self, inp, hidden, decay=0.9):
        super().__init__()
        self.cell = nn.Linear(inp, hidden)
        self.decay = decay

    def forward(self, x):
        h = torch.zeros(x.shape[1], self.cell.out_features)
        for t in range(x.shape[0]):
            h = torch.tanh(self.cell(x[t]) + h)
            h = h.mul(self.decay)  # expect: AGI001
        return h


def run():
    torch.manual_seed(0)
    rnn = LeakyRNN(3, 4)
    h = rnn(torch.randn(4, 2, 3))
    h.sum().backward()
    return h


if __name__ == "__main__":
    print(run())
