import torch
import torch.nn as nn


class ProbeHead(nn.Module):
    def __init__(self, d, n):
        super().__init__()
        self.bias = nn.Parameter(torch.zeros(d))
        self.out = nn.Linear(d, n)

    def forward(self, cls):
        cls.add_(self.bias)  # culprit
        return self.out(cls)
