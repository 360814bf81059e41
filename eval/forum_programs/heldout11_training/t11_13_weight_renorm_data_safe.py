# source: old-style max-norm constraint applied through .data in a Lua-Torch port
# description: the weight is renormalised via .data between forward and backward, which bypasses version tracking
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 4))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
max_norm = 0.5

for it in range(2):
    x = torch.randn(10, 8)
    y = torch.randint(0, 4, (10,))
    loss = F.cross_entropy(model(x), y)
    w = model[2].weight
    norms = w.data.norm(dim=1, keepdim=True).clamp(min=max_norm)
    w.data.mul_(max_norm).div_(norms)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(it, loss.item())
