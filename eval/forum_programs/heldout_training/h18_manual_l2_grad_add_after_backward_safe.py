# intended: safe
# L2 weight decay by hand: after backward I add wd * p to each gradient in place,
# then a hand-written SGD update under no_grad.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(5, 10), nn.Sigmoid(), nn.Linear(10, 1))
lr, wd = 0.1, 1e-3
x, y = torch.randn(12, 5), torch.randn(12, 1)
for step in range(3):
    out = model(x)
    loss = F.mse_loss(out, y)
    model.zero_grad()
    loss.backward()
    for p in model.parameters():
        if p.dim() > 1:
            p.grad.add_(p, alpha=wd)
    with torch.no_grad():
        for p in model.parameters():
            p -= lr * p.grad
    print(step, loss.item())
