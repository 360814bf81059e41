# source: char-RNN truncated BPTT loop that carries the hidden state across chunks without detaching
# description: opt.step() updates RNN weights that the next chunk's backward (through the old graph) still needs
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
cell = nn.RNNCell(3, 8)
head = nn.Linear(8, 1)
opt = torch.optim.SGD(list(cell.parameters()) + list(head.parameters()), lr=0.05)
x = torch.randn(3, 5, 4, 3)
y = torch.randn(3, 5, 4, 1)
h = torch.zeros(4, 8)

for chunk in range(3):
    loss = 0.0
    for t in range(5):
        h = cell(x[chunk, t], h)
        loss = loss + F.mse_loss(head(h), y[chunk, t])
    opt.zero_grad()
    loss.backward(retain_graph=True)
    opt.step()  # culprit
    print(chunk, loss.item())
