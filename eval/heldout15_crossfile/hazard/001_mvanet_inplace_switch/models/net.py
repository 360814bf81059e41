import torch
import torch.nn as nn

from .activations import get_activation_fn


class RefineNet(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.proj = nn.Linear(dim, dim)
        self.gate = nn.Parameter(torch.ones(dim))
        self.activation = get_activation_fn("relu")
        self.out = nn.Linear(dim, 1)

    def forward(self, x):
        h = self.proj(x)
        gated = h * self.gate          # mul saves h (for the gate's gradient)
        h = self.activation(h)         # a ReLU on h, in place once switched
        return self.out(gated + h)
