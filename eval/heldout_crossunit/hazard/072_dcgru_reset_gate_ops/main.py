# Source: Rose-STL-Lab/torchTS#50 ("Inplace operation in fully-connected reset and update gates":
# the DCGRUCell's FC-gate path raised "one of the variables needed for gradient computation has
# been modified by an inplace operation").
# Unit kind: file -- cell.py saves the state in u * state; ops.py multiplies the reset gate into
# the same state in place.
import torch
import torch.nn as nn

from cell import FCGRUCell

torch.manual_seed(0)
cell = FCGRUCell(3, 4)
enc = nn.Linear(3, 4)
xs = torch.randn(3, 2, 3)
h = torch.tanh(enc(xs[0]))
for t in range(1, 3):
    h = cell(xs[t], h)
h.sum().backward()
print("done")
