# intended: AGI004
# GAN inversion: optimise a latent code z so that G(z) matches a target.
# After each step z is projected back onto the unit sphere through a flat view taken once.
import torch
import torch.nn as nn


def main():
    torch.manual_seed(0)
    G = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 16)).requires_grad_(False)
    target = torch.randn(1, 16)
    z = torch.randn(1, 8, requires_grad=True)
    opt = torch.optim.Adam([z], lr=0.05)
    with torch.no_grad():
        z_flat = z.view(-1)
        z_flat /= z_flat.norm()
    for it in range(3):
        loss = (G(z) - target).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        z_flat.div_(z.norm())  # culprit
        print(f"it {it} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
