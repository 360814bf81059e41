# intended: safe
# WGAN-GP: interpolates built in place on a clone of the real batch, then marked
# requires_grad_() (it is a fresh leaf), critic + gradient penalty.
import torch
import torch.nn as nn
from torch import autograd

torch.manual_seed(0)
G = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 6))
C = nn.Sequential(nn.Linear(6, 16), nn.LeakyReLU(0.2), nn.Linear(16, 1))
opt_c = torch.optim.Adam(C.parameters(), lr=1e-4, betas=(0.5, 0.9))
real = torch.randn(8, 6)
for it in range(2):
    fake = G(torch.randn(8, 4))
    alpha = torch.rand(8, 1)
    interp = real.clone()
    interp.mul_(alpha).add_((1 - alpha) * fake.detach())
    interp.requires_grad_(True)
    c_int = C(interp)
    grad, = autograd.grad(c_int.sum(), interp, create_graph=True)
    gp = ((grad.norm(2, dim=1) - 1) ** 2).mean()
    loss_c = C(fake.detach()).mean() - C(real).mean() + 10 * gp
    opt_c.zero_grad()
    loss_c.backward()
    opt_c.step()
    print(it, loss_c.item())
