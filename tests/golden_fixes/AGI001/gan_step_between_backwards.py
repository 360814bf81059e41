"""The classic GAN bug: the discriminator's output on the fake batch is reused for the generator loss
after ``opt_d.step()`` has updated D's weights in place. D's linear layers saved those weights (their
inputs require grad through G), so the generator's backward raises."""
import torch
from torch import nn


def run():
    torch.manual_seed(0)
    G = nn.Sequential(nn.Linear(2, 4), nn.ReLU(), nn.Linear(4, 3))
    D = nn.Sequential(nn.Linear(3, 4), nn.LeakyReLU(0.2), nn.Linear(4, 1))
    opt_g = torch.optim.SGD(G.parameters(), lr=0.1)
    opt_d = torch.optim.SGD(D.parameters(), lr=0.1)
    bce = nn.BCEWithLogitsLoss()
    real = torch.randn(4, 3)
    z = torch.randn(4, 2)

    fake = G(z)
    d_real = D(real)
    d_fake = D(fake)
    ones, zeros = torch.ones(4, 1), torch.zeros(4, 1)

    opt_d.zero_grad()
    d_loss = bce(d_real, ones) + bce(d_fake, zeros)
    d_loss.backward(retain_graph=True)
    opt_d.step()  # expect: AGI001

    opt_g.zero_grad()
    g_loss = bce(d_fake, ones)
    g_loss.backward()
    opt_g.step()
    return fake, d_fake


if __name__ == "__main__":
    print(run())
