# intended: AGI002
# Sharpness-Aware Minimization by hand. First backward, perturb the weights by
# rho * g / ||g||, second forward/backward, restore, step. The perturbation helper
# is not under no_grad.
import torch
import torch.nn as nn
import torch.nn.functional as F


def perturb(model, rho):
    grads = [p.grad for p in model.parameters()]
    norm = torch.norm(torch.stack([g.norm() for g in grads]))
    eps = []
    for p, g in zip(model.parameters(), grads):
        e = rho * g / (norm + 1e-12)
        p.add_(e)  # culprit
        eps.append(e)
    return eps


torch.manual_seed(0)
model = nn.Sequential(nn.Linear(5, 10), nn.ReLU(), nn.Linear(10, 3))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x, y = torch.randn(8, 5), torch.randint(0, 3, (8,))
F.cross_entropy(model(x), y).backward()
eps = perturb(model, 0.05)
opt.zero_grad()
F.cross_entropy(model(x), y).backward()
with torch.no_grad():
    for p, e in zip(model.parameters(), eps):
        p.sub_(e)
opt.step()
