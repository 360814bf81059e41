# Source: https://github.com/googleinterns/deep-stabilization/issues/10 (googleinterns/deep-stabilization#10: model.py's `self.hx, self.cx = self.LSTM(x, (self.hx, self.cx))` with train.py's run_epoch calling loss.backward(retain_graph=True) fails in backward)
# Unit kind: cross-file
# model.py keeps the LSTM state on the module across batches without detaching it;
# train.py's run_epoch steps the optimizer after each backward, so the next batch's
# backward runs into the previous batch's graph, whose saved LSTM weights were updated.
import torch

from model import Net
from train import run_epoch

torch.manual_seed(0)

model = Net(3, 5, batch=2)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
loader = [(torch.randn(2, 3), torch.randn(2, 4)) for _ in range(3)]
print(run_epoch(model, loader, optimizer))
