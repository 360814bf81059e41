# source: hand-written SGD with L2 weight decay in a minimal training script (no torch.optim)
# description: the parameter update p -= lr * (grad + wd * p) runs in grad mode on leaf parameters
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(5, 16), nn.ReLU(), nn.Linear(16, 1))
lr, wd = 0.05, 1e-4

for it in range(2):
    x = torch.randn(12, 5)
    y = x.sum(dim=1, keepdim=True)
    loss = F.mse_loss(model(x), y)
    model.zero_grad()
    loss.backward()
    for p in model.parameters():
        p -= lr * (p.grad + wd * p)  # culprit
    print(it, loss.item())
