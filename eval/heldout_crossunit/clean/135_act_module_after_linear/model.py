import torch
import torch.nn as nn

from layers import Act


class GatedHead(nn.Module):
    def __init__(self, nin, nout):
        super().__init__()
        self.fc = nn.Linear(nin, nout)
        self.act = Act()

    def forward(self, x):
        y = self.fc(x)
        return torch.sigmoid(self.act(y))
