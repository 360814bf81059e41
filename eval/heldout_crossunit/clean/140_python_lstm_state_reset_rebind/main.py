# Source: pytorch/rl#1742 (in-place state updates in Python RNNs replaced by out-of-place ones).
# Clean look-alike of hazard/060.
# Unit kind: file.
import torch

from cell import PyLSTMCell
from runner import run_sequence

torch.manual_seed(0)
cell = PyLSTMCell(3, 4)
xs = torch.randn(3, 2, 3)
reset = torch.tensor([[1.0], [0.0]]).expand(3, 2, 1)
run_sequence(cell, xs, 4, reset).sum().backward()
print("done")
