# Source: https://github.com/NX-AI/xlstm/issues/96 (stateful training with a state carried between calls; here the state buffer is overwritten in place only after the backward, with a detached value)
# Unit kind: cross-file
# Look-alike of hazard/019
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
    loss = h.pow(2).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
    state.write(h.detach())
print("ok", float(loss))
