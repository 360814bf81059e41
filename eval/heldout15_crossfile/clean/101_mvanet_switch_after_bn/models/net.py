import torch
import torch.nn as nn

from .activations import get_activation_fn


class RefineNet(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.proj = nn.Linear(dim, dim)
        self.norm = nn.BatchNorm1d(dim)
        self.gate = nn.Parameter(torch.ones(dim))
        self.activation = get_activation_fn("relu")
        self.out = nn.Linear(dim, 1)

    def forward(self, x):
        h = self.norm(self.proj(x))    # batch norm saves its input, not h
        h = self.activation(h)         # in place once switched: harmless here
        gated = h * self.gate          # saves the activated h, never written again
        return self.out(gated + h)
