"""An RNN writing its hidden states into a preallocated buffer: ``self.hh(hs[t])`` saves the view ``hs[t]``
and the next ``hs[t + 1] = ...`` write bumps the whole buffer's version counter."""
import torch
from torch import nn


class RNN(nn.Module):
    def __init__(self, inp, hidden):
        super().__init__()
        self.hidden = hidden
        self.ih = nn.Linear(inp, hidden)
        self.hh = nn.Linear(hidden, hidden, bias=False)

    def forward(self, x):
        steps, batch, _ = x.shape
        hs = torch.zeros(steps + 1, batch, self.hidden)
        for t in range(steps):
            hs[t + 1] = torch.tanh(self.ih(x[t]) + self.hh(hs[t]))  # expect: AGI001
        return hs[1:]


def run():
    torch.manual_seed(0)
    rnn = RNN(3, 4)
    out = rnn(torch.randn(5, 2, 3))
    out[-1].sum().backward()
    return out


if __name__ == "__main__":
    print(run())
