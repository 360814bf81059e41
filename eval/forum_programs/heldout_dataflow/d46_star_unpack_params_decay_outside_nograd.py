# Manual weight decay that skips the first parameter via star-unpacking, written outside no_grad
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Linear(6, 1))
x, y = torch.randn(8, 4), torch.randn(8, 1)
loss = (model(x) - y).pow(2).mean()
loss.backward()
first, *rest = model.parameters()
for p in rest:
    p.mul_(1 - 1e-2)  # culprit
print(loss.item(), first.shape)
