"""A GAN trainer class (not a module) holding its nets and their optimizers as attributes, as
MADDPG/EdgeConnect-style code does: ``self.opt_d.step()`` updates D's weights in place between the two
backwards, and D's layers saved those weights when they scored the generated batch (its inputs require
grad through G), so ``g_loss.backward()`` raises."""
import torch
from torch import nn


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2, 8), nn.ReLU(), nn.Linear(8, 3))

    def forward(self, z):
        return self.net(z)


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(3, 8)
        self.fc2 = nn.Linear(8, 1)

    def forward(self, x):
        return self.fc2(torch.nn.functional.leaky_relu(self.fc1(x), 0.2))


class GANTrainer:
    def __init__(self):
        self.generator = Generator()
        self.discriminator = Discriminator()
        self.opt_g = torch.optim.Adam(self.generator.parameters(), lr=1e-3)
        self.opt_d = torch.optim.Adam(self.discriminator.parameters(), lr=1e-3)
        self.bce = nn.BCEWithLogitsLoss()

    def train_step(self, real, z):
        fake = self.generator(z)
        d_real = self.discriminator(real)
        d_fake = self.discriminator(fake.detach())
        d_loss = self.bce(d_real, torch.ones_like(d_real)) + self.bce(d_fake, torch.zeros_like(d_fake))
        g_score = self.discriminator(fake)
        g_loss = self.bce(g_score, torch.ones_like(g_score))

        self.opt_d.zero_grad()
        d_loss.backward()
        self.opt_d.step()  # expect: AGI001

        self.opt_g.zero_grad()
        g_loss.backward()
        self.opt_g.step()
        return fake, g_score


def run():
    torch.manual_seed(0)
    trainer = GANTrainer()
    return trainer.train_step(torch.randn(4, 3), torch.randn(4, 2))


if __name__ == "__main__":
    print(run())
