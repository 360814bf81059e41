# Source: psh01087/Vid-ODE#6 (in-place error in the adversarial loss with newer PyTorch; swapping
# the order -- train G first, then D -- fixed it) and xaggi/OGNet#8.
# Unit kind: class -- DiscTrainer.step() changes D's weights that GenTrainer's loss still needs.
import torch
import torch.nn as nn

torch.manual_seed(0)


class DiscTrainer:
    def __init__(self, netD):
        self.opt = torch.optim.Adam(netD.parameters(), lr=1e-4)

    def step(self, loss):
        self.opt.zero_grad()
        loss.backward(retain_graph=True)
        self.opt.step()  # culprit


class GenTrainer:
    def __init__(self, netG):
        self.opt = torch.optim.Adam(netG.parameters(), lr=1e-4)

    def step(self, loss):
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()


netG = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 6))
netD = nn.Sequential(nn.Linear(6, 8), nn.LeakyReLU(0.2), nn.Linear(8, 1))
d_trainer, g_trainer = DiscTrainer(netD), GenTrainer(netG)
fake = netG(torch.randn(5, 4))
real = torch.randn(5, 6)
loss_netD = nn.functional.softplus(netD(fake)).mean() + nn.functional.softplus(-netD(real)).mean()
loss_netG = nn.functional.softplus(-netD(fake)).mean()
d_trainer.step(loss_netD)
g_trainer.step(loss_netG)
print("done")
