# Two-branch block whose second activation is picked from an nn.ModuleDict built with functools.partial;
# the in-place ReLU overwrites the normalised tensor that the GELU branch saved
from functools import partial

import torch
import torch.nn as nn
import torch.nn.functional as F

ACTS = {"relu": partial(nn.ReLU, inplace=True), "gelu": nn.GELU}


class TwoBranch(nn.Module):
    def __init__(self, d, act="relu"):
        super().__init__()
        self.norm = nn.LayerNorm(d)
        self.acts = nn.ModuleDict({k: v() for k, v in ACTS.items()})
        self.act = act
        self.fc = nn.Linear(2 * d, d)

    def forward(self, x):
        y = self.norm(x)
        a = F.gelu(y)
        b = self.acts[self.act](y)  # culprit
        return self.fc(torch.cat([a, b], -1))


torch.manual_seed(0)
m = TwoBranch(6)
m(torch.randn(3, 6)).sum().backward()
print(m.norm.weight.grad.norm().item())
