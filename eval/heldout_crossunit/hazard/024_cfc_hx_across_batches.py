# Source: mlech26l/ncps#62 (hx handed to the next batch; with loss.backward(retain_graph=True)
# the error is "output 0 of AsStridedBackward0, is at version 3; expected version 2").
# Unit kind: method -- the trainer keeps self.hx, its _apply() method steps the optimizer.
import torch
import torch.nn as nn

torch.manual_seed(0)


class Trainer:
    def __init__(self):
        self.rnn = nn.RNNCell(3, 5)
        self.out = nn.Linear(5, 1)
        self.opt = torch.optim.Adam(list(self.rnn.parameters()) + list(self.out.parameters()), lr=1e-2)
        self.hx = torch.zeros(2, 5)

    def _apply(self, loss):
        self.opt.zero_grad()
        loss.backward(retain_graph=True)
        self.opt.step()  # culprit

    def fit_batch(self, x, y):
        self.hx = self.rnn(x, self.hx)
        loss = (self.out(self.hx) - y).pow(2).mean()
        self._apply(loss)


tr = Trainer()
for _ in range(3):
    tr.fit_batch(torch.randn(2, 3), torch.randn(2, 1))
print("done")
