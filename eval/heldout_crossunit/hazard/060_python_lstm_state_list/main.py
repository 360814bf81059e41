# Source: pytorch/rl#1742 ("[BUG] Python-based RNNs in place operations cause RuntimeError").
# The state comes back from the cell as a list and the runner zeroes finished episodes in place.
# Unit kind: file -- cell.py saves c (the peephole product w_co * c); runner.py rewrites it.
import torch

from cell import PyLSTMCell
from runner import run_sequence

torch.manual_seed(0)
cell = PyLSTMCell(3, 4)
xs = torch.randn(3, 2, 3)
reset = torch.tensor([[1.0], [0.0]]).expand(3, 2, 1)
run_sequence(cell, xs, 4, reset).sum().backward()
print("done")
