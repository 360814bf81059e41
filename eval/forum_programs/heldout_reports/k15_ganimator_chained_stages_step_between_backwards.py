# source: https://github.com/PeizhuoLi/ganimator/issues/5 (joint_train maps optimize_parameters over stages; each backward(retain_graph=True) then step)
import torch
import torch.nn as nn


class GAN1D(nn.Module):
    def __init__(self, ch, prev=None):
        super().__init__()
        self.gen = nn.Sequential(nn.Conv1d(ch, ch, 3, padding=1), nn.LeakyReLU(0.2), nn.Conv1d(ch, ch, 3, padding=1))
        self.disc = nn.Sequential(nn.Conv1d(ch, 4, 3, padding=1), nn.LeakyReLU(0.2), nn.Conv1d(4, 1, 3, padding=1))
        self.optimizer_G = torch.optim.Adam(self.gen.parameters(), lr=1e-3)
        self.prev = prev

    def set_input(self, real, z, prev_out):
        self.real = real
        self.z = z
        self.prev_out = prev_out

    def forward_G(self):
        base = self.prev_out if self.prev_out is not None else torch.zeros_like(self.z)
        self.fake = self.gen(self.z + base) + base
        return self.fake

    def backward_G(self):
        loss_adv = -self.disc(self.fake).mean()
        loss_rec = (self.fake - self.real).pow(2).mean()
        loss_total = loss_adv + 10 * loss_rec
        loss_total.backward(retain_graph=True)

    def optimize_parameters(self, gen=True, disc=False, rec=False):
        if gen:
            self.optimizer_G.zero_grad()
            self.backward_G()
            self.optimizer_G.step()  # culprit


def joint_train(reals, gan_models, zs):
    prev_out = None
    for real, model, z in zip(reals, gan_models, zs):
        model.set_input(real, z, prev_out)
        prev_out = model.forward_G()
    optimize_lambda = lambda x: x.optimize_parameters(gen=True, disc=False, rec=False)
    list(map(optimize_lambda, gan_models))


torch.manual_seed(0)
models = [GAN1D(3) for _ in range(2)]
reals = [torch.randn(1, 3, 8) for _ in range(2)]
zs = [torch.randn(1, 3, 8) for _ in range(2)]
joint_train(reals, models, zs)
print("done")
