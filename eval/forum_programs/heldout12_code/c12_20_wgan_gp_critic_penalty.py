# source: WGAN-GP (Gulrajani et al.; caogang/wgan-gp, eriklindernoren/PyTorch-GAN) on 2-D toy data
# WGAN-GP with n_critic updates, interpolated gradient penalty via autograd.grad(create_graph=True), inplace LeakyReLU.
import torch
import torch.nn as nn


class MLPGenerator(nn.Module):
    def __init__(self, nz=4, hidden=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(nz, hidden), nn.ReLU(inplace=True),
                                 nn.Linear(hidden, hidden), nn.ReLU(inplace=True), nn.Linear(hidden, 2))

    def forward(self, z):
        return self.net(z)


class Critic(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2, hidden), nn.LeakyReLU(0.2, inplace=True),
                                 nn.Linear(hidden, hidden), nn.LeakyReLU(0.2, inplace=True), nn.Linear(hidden, 1))

    def forward(self, x):
        return self.net(x).squeeze(-1)


def gradient_penalty(critic, real, fake):
    alpha = torch.rand(real.size(0), 1)
    interp = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
    out = critic(interp)
    grads, = torch.autograd.grad(out, interp, grad_outputs=torch.ones_like(out),
                                 create_graph=True, retain_graph=True)
    return ((grads.norm(2, dim=1) - 1) ** 2).mean()


def set_requires_grad(module, flag):
    for p in module.parameters():
        p.requires_grad_(flag)


def sample_real(n):
    theta = torch.rand(n) * 6.2831
    return torch.stack([theta.cos(), theta.sin()], dim=1) * 2 + 0.05 * torch.randn(n, 2)


def main(iters=2, n_critic=3, lam=10.0, nz=4, bs=16):
    torch.manual_seed(0)
    G, D = MLPGenerator(nz), Critic()
    optG = torch.optim.Adam(G.parameters(), lr=1e-4, betas=(0.5, 0.9))
    optD = torch.optim.Adam(D.parameters(), lr=1e-4, betas=(0.5, 0.9))
    for it in range(iters):
        set_requires_grad(D, True)
        for _ in range(n_critic):
            real = sample_real(bs)
            with torch.no_grad():
                fake = G(torch.randn(bs, nz))
            d_loss = D(fake).mean() - D(real).mean() + lam * gradient_penalty(D, real, fake)
            optD.zero_grad()
            d_loss.backward()
            optD.step()
        set_requires_grad(D, False)
        g_loss = -D(G(torch.randn(bs, nz))).mean()
        optG.zero_grad()
        g_loss.backward()
        optG.step()
        print(f"iter {it} d_loss {d_loss.item():.4f} g_loss {g_loss.item():.4f}")


if __name__ == "__main__":
    main()
