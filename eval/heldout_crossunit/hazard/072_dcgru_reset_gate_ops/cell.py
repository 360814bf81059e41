import torch
import torch.nn as nn

from ops import apply_reset_


class FCGRUCell(nn.Module):
    """Fully-connected reset/update gates, in the shape of torchTS's DCGRUCell."""

    def __init__(self, nin, nh):
        super().__init__()
        self.nh = nh
        self.gates = nn.Linear(nin + nh, 2 * nh)
        self.cand = nn.Linear(nin + nh, nh)

    def forward(self, inputs, state):
        value = torch.sigmoid(self.gates(torch.cat([inputs, state], -1)))
        r, u = torch.split(value, self.nh, dim=-1)
        keep = u * state
        reset_state = apply_reset_(state, r)
        c = torch.tanh(self.cand(torch.cat([inputs, reset_state], -1)))
        return keep + (1.0 - u) * c
