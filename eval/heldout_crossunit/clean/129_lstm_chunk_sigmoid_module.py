# Source: pytorch/pytorch#36403 (outputs of split/chunk may not be modified in place); the gate
# activation module is out of place.
# Clean look-alike of hazard/042.
# Unit kind: class.
import torch
import torch.nn as nn

torch.manual_seed(0)


class GateSigmoid(nn.Module):
    def forward(self, x):
        return torch.sigmoid(x)


class ScratchLSTMCell(nn.Module):
    def __init__(self, nin, nh):
        super().__init__()
        self.lin = nn.Linear(nin + nh, 4 * nh)
        self.gate_act = GateSigmoid()

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
