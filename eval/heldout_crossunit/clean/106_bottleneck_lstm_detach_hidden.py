# Source: vikrant7/mobile-vod-bottleneck-lstm#25 (hebangwen: detach the hidden state inside the
# inner loop, so no backward reaches a graph whose weights optimizer.step() changed).
# Clean look-alike of hazard/007: train_step() returns detached state.
# Unit kind: function.
import torch
import torch.nn as nn

torch.manual_seed(0)
lstm = nn.LSTMCell(4, 6)
head = nn.Linear(6, 1)
opt = torch.optim.SGD(list(lstm.parameters()) + list(head.parameters()), lr=0.1)


def apply_update(loss):
    opt.zero_grad()
    loss.backward()
    opt.step()


def train_step(x, y, hidden):
    h, c = lstm(x, hidden)
    loss = (head(h) - y).pow(2).mean()
    apply_update(loss)
    return (h.detach(), c.detach())


hidden = (torch.zeros(2, 6), torch.zeros(2, 6))
for i in range(3):
    hidden = train_step(torch.randn(2, 4), torch.randn(2, 1), hidden)
print("done")
