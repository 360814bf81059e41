# intended: safe
# Manual momentum SGD with the _foreach ops (like torch's own multi-tensor path),
# under no_grad after backward.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 8), nn.Softplus(), nn.Linear(8, 1))
params = list(model.parameters())
bufs = [torch.zeros_like(p) for p in params]
x, y = torch.randn(10, 4), torch.randn(10, 1)
for step in range(3):
    loss = F.mse_loss(model(x), y)
    for p in params:
        p.grad = None
    loss.backward()
    grads = [p.grad for p in params]
    with torch.no_grad():
        torch._foreach_mul_(bufs, 0.9)
        torch._foreach_add_(bufs, grads)
        torch._foreach_add_(params, bufs, alpha=-0.05)
    print(step, loss.item())
