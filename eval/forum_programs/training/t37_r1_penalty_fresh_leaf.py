# intended: safe
# R1 penalty, several critic iterations; the real batch gets instance noise out of place
# and becomes a fresh leaf (detach().requires_grad_()) every iteration.
import torch
from torch import nn, autograd
import torch.nn.functional as F


def d_step(D, opt, real, fake, gamma=10.0):
    real = real.detach().requires_grad_(True)
    d_real = D(real)
    d_fake = D(fake)
    grad, = autograd.grad(d_real.sum(), real, create_graph=True)
    r1 = grad.pow(2).flatten(1).sum(1).mean()
    loss = F.softplus(d_fake).mean() + F.softplus(-d_real).mean() + 0.5 * gamma * r1
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.item()


def main():
    torch.manual_seed(0)
    D = nn.Sequential(nn.Linear(6, 16), nn.LeakyReLU(0.2), nn.Linear(16, 1))
    opt = torch.optim.Adam(D.parameters(), lr=1e-3, betas=(0.0, 0.99))
    real = torch.randn(8, 6)
    fake = torch.randn(8, 6)
    sigma = 0.1
    for k in range(3):
        print(k, d_step(D, opt, real, fake))
        real = real + sigma * torch.randn_like(real)
        sigma *= 0.5


if __name__ == "__main__":
    main()
