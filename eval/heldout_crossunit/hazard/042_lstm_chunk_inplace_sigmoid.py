# Source: pytorch/pytorch#36403 and PR #39977 (split/chunk outputs registered as views; the PR
# notes hand-written RNN code that modifies a chunk in place "arguably" should break).
# Unit kind: class -- a custom in-place activation module applied to chunk() outputs of the cell.
import torch
import torch.nn as nn

torch.manual_seed(0)


class InplaceSigmoid(nn.Module):
    def forward(self, x):
        return x.sigmoid_()  # culprit


class ScratchLSTMCell(nn.Module):
    def __init__(self, nin, nh):
        super().__init__()
        self.lin = nn.Linear(nin + nh, 4 * nh)
        self.gate_act = InplaceSigmoid()

    def forward(self, x, state):
        h, c = state
        i, f, g, o = self.lin(torch.cat([x, h], 1)).chunk(4, 1)
        i, f, o = self.gate_act(i), self.gate_act(f), self.gate_act(o)
        c = f * c + i * torch.tanh(g)
        return o * torch.tanh(c), c


cell = ScratchLSTMCell(3, 4)
h, c = cell(torch.randn(2, 3), (torch.zeros(2, 4), torch.zeros(2, 4)))
h.sum().backward()
print("done")
