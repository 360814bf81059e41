# intended: AGI003
# Multi-task with per-task loss weights. I stack the task losses, unbind them to
# log each, and apply the weight in place.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
trunk = nn.Sequential(nn.Linear(6, 16), nn.ReLU())
heads = nn.ModuleList([nn.Linear(16, 1) for _ in range(3)])
opt = torch.optim.Adam([*trunk.parameters(), *heads.parameters()], lr=1e-3)
weights = [1.0, 0.5, 0.1]
x = torch.randn(8, 6)
ys = [torch.randn(8, 1) for _ in range(3)]
h = trunk(x)
losses = torch.stack([F.mse_loss(hd(h), yt) for hd, yt in zip(heads, ys)])
per_task = losses.unbind(0)
for i, l in enumerate(per_task):
    print("task", i, l.item())
    l *= weights[i]  # culprit
total = sum(per_task)
opt.zero_grad()
total.backward()
opt.step()
