# The same star-unpacked weight decay, inside torch.no_grad() after backward: the correct version
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Linear(6, 1))
x, y = torch.randn(8, 4), torch.randn(8, 1)
for _ in range(2):
    loss = (model(x) - y).pow(2).mean()
    model.zero_grad()
    loss.backward()
    first, *rest = model.parameters()
    with torch.no_grad():
        for p in rest:
            p.mul_(1 - 1e-2)
            p.sub_(0.1 * p.grad)
print(loss.item(), first.shape)
