# Source: tamarott/SinGAN#148 and #103 (train_single_scale: the fake image made once is fed
# to netD in every generator step; optimizerG.step() changes netG's weights in place between
# two backward passes through the same netG graph).
# Unit kind: function -- the optimizer step is in a helper called from the training loop.
import torch
import torch.nn as nn

torch.manual_seed(0)
netG = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.LeakyReLU(0.2), nn.Conv2d(8, 3, 3, padding=1))
netD = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.LeakyReLU(0.2), nn.Conv2d(8, 1, 3, padding=1))
optimizerG = torch.optim.Adam(netG.parameters(), lr=5e-4)


def generator_step(opt, err):
    err.backward(retain_graph=True)
    opt.step()  # culprit


def train_single_scale(g_steps=2):
    noise = torch.randn(1, 3, 8, 8)
    fake = netG(noise)
    for j in range(g_steps):
        netG.zero_grad()
        output = netD(fake)
        errG = -output.mean()
        generator_step(optimizerG, errG)


train_single_scale()
print("done")
