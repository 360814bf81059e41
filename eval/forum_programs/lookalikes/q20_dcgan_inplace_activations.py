# intended: safe
# DCGAN-style generator and discriminator with ReLU(inplace=True) / LeakyReLU(inplace=True)
# after BatchNorm and conv layers, trained with the usual detached fake for the D step.
import torch
import torch.nn as nn

nz = 8


def make_g():
    return nn.Sequential(
        nn.ConvTranspose2d(nz, 16, 4, 1, 0, bias=False), nn.BatchNorm2d(16), nn.ReLU(True),
        nn.ConvTranspose2d(16, 8, 4, 2, 1, bias=False), nn.BatchNorm2d(8), nn.ReLU(True),
        nn.ConvTranspose2d(8, 1, 4, 2, 1, bias=False), nn.Tanh(),
    )


def make_d():
    return nn.Sequential(
        nn.Conv2d(1, 8, 4, 2, 1, bias=False), nn.LeakyReLU(0.2, inplace=True),
        nn.Conv2d(8, 16, 4, 2, 1, bias=False), nn.BatchNorm2d(16), nn.LeakyReLU(0.2, inplace=True),
        nn.Conv2d(16, 1, 4, 1, 0, bias=False), nn.Flatten(),
    )


def main():
    torch.manual_seed(0)
    G, D = make_g(), make_d()
    opt_g = torch.optim.Adam(G.parameters(), lr=2e-4, betas=(0.5, 0.999))
    opt_d = torch.optim.Adam(D.parameters(), lr=2e-4, betas=(0.5, 0.999))
    bce = nn.BCEWithLogitsLoss()
    for it in range(2):
        real = torch.rand(4, 1, 16, 16) * 2 - 1
        fake = G(torch.randn(4, nz, 1, 1))
        d_loss = bce(D(real), torch.ones(4, 1)) + bce(D(fake.detach()), torch.zeros(4, 1))
        opt_d.zero_grad()
        d_loss.backward()
        opt_d.step()
        g_loss = bce(D(fake), torch.ones(4, 1))
        opt_g.zero_grad()
        g_loss.backward()
        opt_g.step()
        print(it, round(d_loss.item(), 4), round(g_loss.item(), 4))


if __name__ == "__main__":
    main()
