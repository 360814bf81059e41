# intended: safe
# GAN with the generator step first, then the discriminator step on fake.detach().
# D gradients from the G step are thrown away by optD.zero_grad().
import torch
from torch import nn


def build(in_dim, out_dim, hidden=16):
    return nn.Sequential(nn.Linear(in_dim, hidden), nn.LeakyReLU(0.2), nn.Linear(hidden, out_dim))


def main():
    torch.manual_seed(0)
    netG, netD = build(8, 4), build(4, 1)
    optG = torch.optim.Adam(netG.parameters(), lr=2e-4, betas=(0.5, 0.999))
    optD = torch.optim.Adam(netD.parameters(), lr=2e-4, betas=(0.5, 0.999))
    criterion = nn.BCEWithLogitsLoss()
    real = torch.randn(16, 4) * 0.5 + 1.0
    for it in range(3):
        fake = netG(torch.randn(16, 8))
        out = netD(fake)
        errG = criterion(out, torch.ones_like(out))
        optG.zero_grad()
        errG.backward()
        optG.step()
        d_real, d_fake = netD(real), netD(fake.detach())
        errD = criterion(d_real, torch.ones_like(d_real)) + criterion(d_fake, torch.zeros_like(d_fake))
        optD.zero_grad()
        errD.backward()
        optD.step()
        print(f"[{it}] errD={errD.item():.4f} errG={errG.item():.4f}")


if __name__ == "__main__":
    main()
