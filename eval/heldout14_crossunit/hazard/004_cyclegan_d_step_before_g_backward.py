# Source: https://github.com/cy-xu/simple_CycleGAN/issues/3 (cy-xu/simple_CycleGAN#3: with pytorch >= 1.5 the discriminator parameters are updated in place but still needed afterwards; see also pytorch/pytorch#39141)
# Unit kind: cross-function
# The generator loss goes through D; the discriminator helper steps D's optimizer
# before the generator loss is backpropagated.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def backward_d(netd, real, fake, opt_d):
    opt_d.zero_grad()
    loss = F.mse_loss(netd(real), torch.ones(real.size(0), 1)) + F.mse_loss(netd(fake.detach()), torch.zeros(fake.size(0), 1))
    loss.backward()
    opt_d.step()  # culprit


def generator_loss(netd, fake):
    return F.mse_loss(netd(fake), torch.ones(fake.size(0), 1))


netg = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 4))
netd = nn.Sequential(nn.Linear(4, 8), nn.LeakyReLU(0.2), nn.Linear(8, 1))
opt_g = torch.optim.Adam(netg.parameters(), lr=2e-4)
opt_d = torch.optim.Adam(netd.parameters(), lr=2e-4)

real_a, real_b = torch.randn(3, 4), torch.randn(3, 4)
fake_b = netg(real_a)
loss_g = generator_loss(netd, fake_b)
backward_d(netd, real_b, fake_b, opt_d)
opt_g.zero_grad()
loss_g.backward()
opt_g.step()
print("done")
