# source: martinarjovsky/WassersteinGAN main.py (critic weights clamped after optimizerD.step()), as ported to modern PyTorch with torch.no_grad() instead of p.data
# fixed version: the in-place clamp runs under no_grad after the step, when no live graph has saved the critic weights
import torch
import torch.nn as nn

torch.manual_seed(0)
NZ, NFEAT, BATCH, CLIP, N_CRITIC = 6, 10, 8, 0.01, 3


class Critic(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(NFEAT, 24), nn.LeakyReLU(0.2, inplace=True), nn.Linear(24, 1))

    def forward(self, x):
        return self.net(x).mean()

    @torch.no_grad()
    def clip_weights(self, c):
        for p in self.parameters():
            p.clamp_(-c, c)


netG = nn.Sequential(nn.Linear(NZ, 24), nn.ReLU(True), nn.Linear(24, NFEAT), nn.Tanh())
netD = Critic()
optD = torch.optim.RMSprop(netD.parameters(), lr=5e-5)
optG = torch.optim.RMSprop(netG.parameters(), lr=5e-5)

gen_iterations = 0
for epoch in range(2):
    for _ in range(N_CRITIC):
        real = torch.randn(BATCH, NFEAT)
        optD.zero_grad()
        with torch.no_grad():
            fake = netG(torch.randn(BATCH, NZ))
        errD = netD(fake) - netD(real)
        errD.backward()
        optD.step()
        netD.clip_weights(CLIP)

    for p in netD.parameters():
        p.requires_grad = False
    optG.zero_grad()
    errG = -netD(netG(torch.randn(BATCH, NZ)))
    errG.backward()
    optG.step()
    for p in netD.parameters():
        p.requires_grad = True
    gen_iterations += 1
    print(epoch, errD.item(), errG.item())
