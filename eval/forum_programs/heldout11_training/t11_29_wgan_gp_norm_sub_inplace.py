# source: WGAN-GP critic update with a gradient penalty on interpolated samples
# description: the per-sample gradient norm is shifted in place with sub_(1), but norm saved its result
import torch
import torch.nn as nn

torch.manual_seed(0)
G = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 6))
D = nn.Sequential(nn.Linear(6, 16), nn.Tanh(), nn.Linear(16, 1))
d_opt = torch.optim.Adam(D.parameters(), lr=1e-4, betas=(0.0, 0.9))
lam = 10.0

for it in range(2):
    real = torch.randn(8, 6)
    with torch.no_grad():
        fake = G(torch.randn(8, 4))
    eps = torch.rand(8, 1)
    interp = (eps * real + (1 - eps) * fake).requires_grad_(True)
    grads, = torch.autograd.grad(D(interp).sum(), interp, create_graph=True)
    gnorm = grads.norm(2, dim=1)
    gnorm.sub_(1)  # culprit
    gp = gnorm.pow(2).mean()
    d_loss = D(fake).mean() - D(real).mean() + lam * gp
    d_opt.zero_grad()
    d_loss.backward()
    d_opt.step()
    print(it, d_loss.item())
