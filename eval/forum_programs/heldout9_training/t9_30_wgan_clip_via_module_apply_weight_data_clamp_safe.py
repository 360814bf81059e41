# source: original WGAN (Arjovsky et al. 2017) weight clipping -- martinarjovsky/WassersteinGAN uses p.data.clamp_ after each critic step
# WGAN critic loop that clips every Linear's weight and bias through .data from a function passed to Module.apply.
import torch
import torch.nn as nn

torch.manual_seed(0)


class Critic(nn.Module):
    def __init__(self, dim=10):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(dim, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1))

    def forward(self, x):
        return self.net(x).mean()


def make_clipper(c):
    def clip(module):
        if isinstance(module, nn.Linear):
            module.weight.data.clamp_(-c, c)
            module.bias.data.clamp_(-c, c)
    return clip


generator = nn.Sequential(nn.Linear(4, 32), nn.ReLU(), nn.Linear(32, 10))
critic = Critic()
opt_c = torch.optim.RMSprop(critic.parameters(), lr=5e-5)
opt_g = torch.optim.RMSprop(generator.parameters(), lr=5e-5)
n_critic, clipper = 3, make_clipper(0.01)

for it in range(2):
    for _ in range(n_critic):
        real = torch.randn(16, 10) + 1.0
        fake = generator(torch.randn(16, 4)).detach()
        loss_c = critic(fake) - critic(real)
        opt_c.zero_grad()
        loss_c.backward()
        opt_c.step()
        critic.apply(clipper)
    loss_g = -critic(generator(torch.randn(16, 4)))
    opt_g.zero_grad()
    loss_g.backward()
    opt_g.step()
    print(it, loss_c.item(), loss_g.item())
