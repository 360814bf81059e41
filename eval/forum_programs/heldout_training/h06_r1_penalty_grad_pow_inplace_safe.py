# intended: safe
# R1 regulariser: gradient of D(real) w.r.t. the real images, squared in place
# (pow_) before summing. Worried pow_ breaks double backward.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch import autograd

torch.manual_seed(0)
D = nn.Sequential(nn.Linear(8, 16), nn.LeakyReLU(0.2), nn.Linear(16, 1))
opt = torch.optim.Adam(D.parameters(), lr=1e-3)
real = torch.randn(6, 8)
for it in range(2):
    real.requires_grad_(True)
    d_real = D(real)
    loss_real = F.softplus(-d_real).mean()
    g, = autograd.grad(d_real.sum(), real, create_graph=True)
    r1 = g.pow_(2).sum(dim=1).mean()
    loss = loss_real + 5.0 * r1
    opt.zero_grad()
    loss.backward()
    opt.step()
    real = real.detach()
    print(it, loss.item())
