"""A training step that breaks at backward; torch's error does not say which line made it break.

    python examples/explain_demo.py                  # torch's error alone
    inplace-lint explain examples/explain_demo.py    # the same error, explained
"""
import torch
from torch import nn


class Gate(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        gate = torch.sigmoid(self.proj(x))
        gate.clamp_(min=0.05)  # keep every channel a little open
        return x * gate


torch.manual_seed(0)
model = nn.Sequential(nn.Linear(8, 8), Gate(8), nn.Linear(8, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x, y = torch.randn(4, 8), torch.randn(4, 1)
loss = nn.functional.mse_loss(model(x), y)
loss.backward()
opt.step()
