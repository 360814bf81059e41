# source: Madry-style PGD adversarial training with projection onto the eps-ball
# description: the adversarial input is a detached clone, stepped/projected/clamped in place under no_grad
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 4))
opt = torch.optim.SGD(model.parameters(), lr=0.05)
eps, alpha, steps = 0.1, 0.03, 3

for it in range(2):
    x = torch.rand(8, 10)
    y = torch.randint(0, 4, (8,))
    x_adv = x.detach().clone()
    x_adv.add_(torch.empty_like(x_adv).uniform_(-eps, eps)).clamp_(0, 1)
    for _ in range(steps):
        x_adv.requires_grad_(True)
        loss = F.cross_entropy(model(x_adv), y)
        grad, = torch.autograd.grad(loss, x_adv)
        with torch.no_grad():
            x_adv.add_(alpha * grad.sign())
            x_adv.copy_(torch.min(torch.max(x_adv, x - eps), x + eps))
            x_adv.clamp_(0, 1)
        x_adv = x_adv.detach()
    adv_loss = F.cross_entropy(model(x_adv), y)
    opt.zero_grad()
    adv_loss.backward()
    opt.step()
    print(it, adv_loss.item())
