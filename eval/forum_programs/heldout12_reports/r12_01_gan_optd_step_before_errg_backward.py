# source: https://github.com/pytorch/pytorch/issues/39141 (GAN training that worked on 1.4 fails on 1.5 with "modified by an inplace operation"; D output reused for G loss after optimizerD.step())
# optimizerD.step() updates D's weights in place, then errG.backward() walks the D(fake) graph that saved the old weights
import torch
import torch.nn as nn

torch.manual_seed(0)
NZ, NFEAT, BATCH = 8, 16, 4


class Generator(nn.Module):
    def __init__(self, nz=NZ, nout=NFEAT):
        super().__init__()
        self.main = nn.Sequential(
            nn.Linear(nz, 32), nn.ReLU(True), nn.Linear(32, nout), nn.Tanh()
        )

    def forward(self, z):
        return self.main(z)


class Discriminator(nn.Module):
    def __init__(self, nin=NFEAT):
        super().__init__()
        self.main = nn.Sequential(
            nn.Linear(nin, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1), nn.Sigmoid()
        )

    def forward(self, x):
        return self.main(x).view(-1)


netG, netD = Generator(), Discriminator()
criterion = nn.BCELoss()
optimizerD = torch.optim.Adam(netD.parameters(), lr=2e-4, betas=(0.5, 0.999))
optimizerG = torch.optim.Adam(netG.parameters(), lr=2e-4, betas=(0.5, 0.999))
real_label, fake_label = 1.0, 0.0

for i in range(3):
    real = torch.randn(BATCH, NFEAT)
    # (1) Update D network: maximize log(D(x)) + log(1 - D(G(z)))
    netD.zero_grad()
    label = torch.full((BATCH,), real_label)
    output = netD(real)
    errD_real = criterion(output, label)
    errD_real.backward()

    noise = torch.randn(BATCH, NZ)
    fake = netG(noise)
    label.fill_(fake_label)
    output = netD(fake)
    errD_fake = criterion(output, label)
    errD_fake.backward(retain_graph=True)
    errD = errD_real + errD_fake
    optimizerD.step()  # culprit

    # (2) Update G network: maximize log(D(G(z))), reusing `output` from above
    netG.zero_grad()
    label.fill_(real_label)
    errG = criterion(output, label)
    errG.backward()
    optimizerG.step()
    print(f"[{i}] Loss_D {errD.item():.4f} Loss_G {errG.item():.4f}")
