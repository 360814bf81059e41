# source: DCGAN training loop (pytorch/examples dcgan) restructured to reuse one discriminator pass for D and G losses
# GAN step that backprops the discriminator loss with retain_graph, steps D, then reuses D(fake) for the generator loss.
import torch
import torch.nn as nn
import torch.nn.functional as F


class Generator(nn.Module):
    def __init__(self, nz=8, ngf=8):
        super().__init__()
        self.main = nn.Sequential(
            nn.ConvTranspose2d(nz, ngf * 2, 4, 1, 0, bias=False), nn.BatchNorm2d(ngf * 2), nn.ReLU(True),
            nn.ConvTranspose2d(ngf * 2, ngf, 4, 2, 1, bias=False), nn.BatchNorm2d(ngf), nn.ReLU(True),
            nn.ConvTranspose2d(ngf, 1, 4, 2, 1, bias=False), nn.Tanh())

    def forward(self, z):
        return self.main(z)


class Discriminator(nn.Module):
    def __init__(self, ndf=8):
        super().__init__()
        self.main = nn.Sequential(
            nn.Conv2d(1, ndf, 4, 2, 1, bias=False), nn.LeakyReLU(0.2, inplace=True),
            nn.Conv2d(ndf, ndf * 2, 4, 2, 1, bias=False), nn.BatchNorm2d(ndf * 2), nn.LeakyReLU(0.2, inplace=True),
            nn.Conv2d(ndf * 2, 1, 4, 1, 0, bias=False))

    def forward(self, x):
        return self.main(x).view(-1)


def weights_init(m):
    if isinstance(m, (nn.Conv2d, nn.ConvTranspose2d)):
        nn.init.normal_(m.weight, 0.0, 0.02)
    elif isinstance(m, nn.BatchNorm2d):
        nn.init.normal_(m.weight, 1.0, 0.02)
        nn.init.zeros_(m.bias)


def train(num_steps=2, batch_size=4, nz=8):
    netG, netD = Generator(nz), Discriminator()
    netG.apply(weights_init)
    netD.apply(weights_init)
    optG = torch.optim.Adam(netG.parameters(), lr=2e-4, betas=(0.5, 0.999))
    optD = torch.optim.Adam(netD.parameters(), lr=2e-4, betas=(0.5, 0.999))
    ones, zeros = torch.ones(batch_size), torch.zeros(batch_size)
    for step in range(num_steps):
        real = torch.rand(batch_size, 1, 16, 16) * 2 - 1
        fake = netG(torch.randn(batch_size, nz, 1, 1))
        d_real = netD(real)
        d_fake = netD(fake)
        errD = F.binary_cross_entropy_with_logits(d_real, ones) + F.binary_cross_entropy_with_logits(d_fake, zeros)
        optD.zero_grad()
        errD.backward(retain_graph=True)
        optD.step()  # culprit
        errG = F.binary_cross_entropy_with_logits(d_fake, ones)
        optG.zero_grad()
        errG.backward()
        optG.step()
        print(f"step {step} errD {errD.item():.4f} errG {errG.item():.4f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    train()
