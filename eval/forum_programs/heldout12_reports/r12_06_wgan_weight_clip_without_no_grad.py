# source: discuss.pytorch.org thread "WGAN weight clipping: a leaf Variable that requires grad is being used in an in-place operation" (p.data.clamp_ from martinarjovsky/WassersteinGAN rewritten as p.clamp_)
# clamping the critic's parameters in place outside torch.no_grad() is an in-place op on a leaf that requires grad
import torch
import torch.nn as nn

torch.manual_seed(0)
NZ, NFEAT, BATCH, CLIP, N_CRITIC = 6, 10, 8, 0.01, 2


def make_mlp(n_in, n_out, final=None):
    layers = [nn.Linear(n_in, 24), nn.ReLU(), nn.Linear(24, n_out)]
    if final is not None:
        layers.append(final)
    return nn.Sequential(*layers)


class WGAN:
    def __init__(self):
        self.G = make_mlp(NZ, NFEAT, nn.Tanh())
        self.D = make_mlp(NFEAT, 1)
        self.opt_g = torch.optim.RMSprop(self.G.parameters(), lr=5e-5)
        self.opt_d = torch.optim.RMSprop(self.D.parameters(), lr=5e-5)

    def clip_critic(self):
        for p in self.D.parameters():
            p.clamp_(-CLIP, CLIP)  # culprit

    def critic_step(self, real):
        self.opt_d.zero_grad()
        fake = self.G(torch.randn(real.size(0), NZ)).detach()
        loss_d = self.D(fake).mean() - self.D(real).mean()
        loss_d.backward()
        self.opt_d.step()
        self.clip_critic()
        return loss_d.item()

    def generator_step(self):
        self.opt_g.zero_grad()
        loss_g = -self.D(self.G(torch.randn(BATCH, NZ))).mean()
        loss_g.backward()
        self.opt_g.step()
        return loss_g.item()


gan = WGAN()
for it in range(3):
    for _ in range(N_CRITIC):
        ld = gan.critic_step(torch.randn(BATCH, NFEAT))
    lg = gan.generator_step()
    print(it, ld, lg)
