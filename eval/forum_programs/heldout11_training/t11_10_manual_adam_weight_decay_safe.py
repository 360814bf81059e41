# source: hand-written AdamW-like optimizer with state buffers updated in place
# description: grads, moment buffers and parameters are all updated in place under torch.no_grad() after backward
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(5, 16), nn.ReLU(), nn.Linear(16, 1))
params = list(model.parameters())
lr, wd, b1, b2, eps = 1e-2, 1e-2, 0.9, 0.999, 1e-8
m = [torch.zeros_like(p) for p in params]
v = [torch.zeros_like(p) for p in params]

for step in range(1, 3):
    x = torch.randn(12, 5)
    y = x.sum(dim=1, keepdim=True)
    loss = F.mse_loss(model(x), y)
    for p in params:
        p.grad = None
    loss.backward()
    with torch.no_grad():
        for p, mi, vi in zip(params, m, v):
            g = p.grad
            p.mul_(1 - lr * wd)
            mi.mul_(b1).add_(g, alpha=1 - b1)
            vi.mul_(b2).addcmul_(g, g, value=1 - b2)
            m_hat = mi / (1 - b1 ** step)
            denom = (vi / (1 - b2 ** step)).sqrt_().add_(eps)
            p.addcdiv_(m_hat, denom, value=-lr)
    print(step, loss.item())
