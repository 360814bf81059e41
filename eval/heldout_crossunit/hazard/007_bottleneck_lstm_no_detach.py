# Source: vikrant7/mobile-vod-bottleneck-lstm#25 (hidden state not detached inside the inner
# loop; the next backward runs through a graph whose weights optimizer.step() has changed).
# Unit kind: function -- train_step() runs the cell and keeps the hidden state; the optimizer
# step is in apply_update().
import torch
import torch.nn as nn

torch.manual_seed(0)
lstm = nn.LSTMCell(4, 6)
head = nn.Linear(6, 1)
opt = torch.optim.SGD(list(lstm.parameters()) + list(head.parameters()), lr=0.1)


def apply_update(loss):
    opt.zero_grad()
    loss.backward(retain_graph=True)
    opt.step()  # culprit


def train_step(x, y, hidden):
    h, c = lstm(x, hidden)
    loss = (head(h) - y).pow(2).mean()
    apply_update(loss)
    return (h, c)


hidden = (torch.zeros(2, 6), torch.zeros(2, 6))
for i in range(3):
    hidden = train_step(torch.randn(2, 4), torch.randn(2, 1), hidden)
print("done")
