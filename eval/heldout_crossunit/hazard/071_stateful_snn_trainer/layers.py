import torch
import torch.nn as nn


class LeakyCell(nn.Module):
    def __init__(self, nin, nh, beta=0.9):
        super().__init__()
        self.fc = nn.Linear(nin, nh)
        self.rec = nn.Linear(nh, nh, bias=False)
        self.beta = beta

    def forward(self, x, v):
        v = self.beta * v + self.fc(x) + self.rec(torch.tanh(v))
        return torch.tanh(v), v
