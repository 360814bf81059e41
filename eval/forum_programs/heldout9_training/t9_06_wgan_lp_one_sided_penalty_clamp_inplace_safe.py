# source: WGAN-LP (Petzka et al. 2018) one-sided penalty max(0, ||grad|| - 1)^2, written with an in-place clamp_
# WGAN critic update with a one-sided gradient penalty; the clamp_ is applied to the (norm - 1) difference, which nothing saved.
import torch
import torch.nn as nn

torch.manual_seed(0)


class Critic(nn.Module):
    def __init__(self, dim=12, hidden=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(dim, hidden), nn.LeakyReLU(0.2),
                                 nn.Linear(hidden, hidden), nn.LeakyReLU(0.2),
                                 nn.Linear(hidden, 1))

    def forward(self, x):
        return self.net(x)


def one_sided_penalty(critic, real, fake):
    alpha = torch.rand(real.size(0), 1)
    x_hat = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
    scores = critic(x_hat)
    grads, = torch.autograd.grad(scores.sum(), x_hat, create_graph=True)
    excess = grads.norm(2, dim=1) - 1.0
    excess.clamp_(min=0.0)
    return excess.pow(2).mean()


generator = nn.Sequential(nn.Linear(4, 32), nn.ReLU(), nn.Linear(32, 12))
critic = Critic()
opt_c = torch.optim.Adam(critic.parameters(), lr=1e-4, betas=(0.0, 0.9))
lambda_lp = 10.0

for it in range(3):
    real = torch.randn(16, 12)
    with torch.no_grad():
        fake = generator(torch.randn(16, 4))
    wdist = critic(fake).mean() - critic(real).mean()
    loss_c = wdist + lambda_lp * one_sided_penalty(critic, real, fake)
    opt_c.zero_grad()
    loss_c.backward()
    opt_c.step()
    print(it, loss_c.item())
