# intended: AGI001
# Decoupled weight decay (AdamW style) by hand. I shrink the weights under no_grad
# right after the forward, then call backward and step.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(6, 12), nn.ReLU(), nn.Linear(12, 2))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
lr, wd = 1e-3, 0.05
x, y = torch.randn(10, 6), torch.randint(0, 2, (10,))
for step in range(2):
    loss = F.cross_entropy(model(x), y)
    with torch.no_grad():
        for name, p in model.named_parameters():
            if name.endswith("weight"):
                p.mul_(1 - lr * wd)  # culprit
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, loss.item())
