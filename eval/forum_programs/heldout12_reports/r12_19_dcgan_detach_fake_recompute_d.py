# source: pytorch/examples dcgan/main.py training loop (netD(fake.detach()) for the D step, output = netD(fake) recomputed after optimizerD.step() for the G step)
# fixed version of the GAN report: D(fake) is recomputed after the D step, so no graph holds the pre-step D weights
import torch
import torch.nn as nn

torch.manual_seed(0)
NZ, NFEAT, BATCH = 8, 16, 4

netG = nn.Sequential(nn.Linear(NZ, 32), nn.BatchNorm1d(32), nn.ReLU(True), nn.Linear(32, NFEAT), nn.Tanh())
netD = nn.Sequential(nn.Linear(NFEAT, 32), nn.LeakyReLU(0.2, inplace=True), nn.Linear(32, 1), nn.Sigmoid())
criterion = nn.BCELoss()
optimizerD = torch.optim.Adam(netD.parameters(), lr=2e-4, betas=(0.5, 0.999))
optimizerG = torch.optim.Adam(netG.parameters(), lr=2e-4, betas=(0.5, 0.999))
real_label, fake_label = 1.0, 0.0

for i in range(3):
    real = torch.randn(BATCH, NFEAT)
    netD.zero_grad()
    label = torch.full((BATCH,), real_label)
    output = netD(real).view(-1)
    errD_real = criterion(output, label)
    errD_real.backward()

    noise = torch.randn(BATCH, NZ)
    fake = netG(noise)
    label.fill_(fake_label)
    output = netD(fake.detach()).view(-1)
    errD_fake = criterion(output, label)
    errD_fake.backward()
    errD = errD_real + errD_fake
    optimizerD.step()

    netG.zero_grad()
    label.fill_(real_label)
    output = netD(fake).view(-1)
    errG = criterion(output, label)
    errG.backward()
    optimizerG.step()
    print(f"[{i}] Loss_D {errD.item():.4f} Loss_G {errG.item():.4f}")
