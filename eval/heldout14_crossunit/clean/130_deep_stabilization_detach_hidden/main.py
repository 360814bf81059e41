# Source: https://github.com/googleinterns/deep-stabilization/issues/10 (googleinterns/deep-stabilization#10); the same fix as vikrant7/mobile-vod-bottleneck-lstm#25: detach the hidden state inside the batch loop
# Unit kind: cross-file
# Look-alike of hazard/034: train.py detaches model.py's carried LSTM state at the start
# of every batch, so no backward reaches a graph whose weights were since stepped.
import torch

from model import Net
from train import run_epoch

torch.manual_seed(0)

model = Net(3, 5, batch=2)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
loader = [(torch.randn(2, 3), torch.randn(2, 4)) for _ in range(3)]
print(run_epoch(model, loader, optimizer))
