# Source: https://github.com/NX-AI/xlstm/issues/96 (stateful training: the state carried between calls breaks backward, "Error detected in MulBackward0")
# Unit kind: cross-file
import torch

from cell import RecurrentCell
from state import StateBuffer

torch.manual_seed(0)
cell = RecurrentCell(3, 5)
state = StateBuffer(5)
opt = torch.optim.SGD(cell.parameters(), lr=0.01)
for step in range(2):
    x = torch.randn(1, 3)
    h = cell(x, state.read())
    state.write(h)
    loss = h.pow(2).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
print("ok", float(loss))
