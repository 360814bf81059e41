# DDPM-style sampling loop with in-place updates under torch.no_grad()
import torch
import torch.nn as nn


class Denoiser(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d + 1, 16), nn.SiLU(), nn.Linear(16, d))

    def forward(self, x, t):
        tt = torch.full((x.size(0), 1), float(t))
        return self.net(torch.cat([x, tt], dim=1))


@torch.no_grad()
def sample(model, n, d, steps=10):
    betas = torch.linspace(1e-4, 0.02, steps)
    alphas = 1 - betas
    abar = torch.cumprod(alphas, 0)
    x = torch.randn(n, d)
    for t in reversed(range(steps)):
        eps = model(x, t)
        x -= betas[t] / torch.sqrt(1 - abar[t]) * eps
        x /= torch.sqrt(alphas[t])
        if t > 0:
            x += torch.sqrt(betas[t]) * torch.randn_like(x)
        x.clamp_(-3, 3)
    return x


def main():
    torch.manual_seed(0)
    print(sample(Denoiser(2), 4, 2).shape)


if __name__ == "__main__":
    main()
