# Source: tamarott/SinGAN PR #117 review (rgb000000: "I think maybe we need to generate a new fake
# to update netG, and errG don't use retain_graph=true").
# Clean look-alike of hazard/002: the fake is regenerated inside every generator step.
# Unit kind: function.
import torch
import torch.nn as nn

torch.manual_seed(0)
netG = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.LeakyReLU(0.2), nn.Conv2d(8, 3, 3, padding=1))
netD = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.LeakyReLU(0.2), nn.Conv2d(8, 1, 3, padding=1))
optimizerG = torch.optim.Adam(netG.parameters(), lr=5e-4)


def generator_step(opt, err):
    err.backward()
    opt.step()


def train_single_scale(g_steps=2):
    noise = torch.randn(1, 3, 8, 8)
    for j in range(g_steps):
        netG.zero_grad()
        fake = netG(noise)
        output = netD(fake)
        errG = -output.mean()
        generator_step(optimizerG, errG)


train_single_scale()
print("done")
