import torch
import torch.nn.functional as F


class BaseGanLearner:
    def __init__(self, gen_model, disc_model, latent_size):
        self.gen_model, self.disc_model = gen_model, disc_model
        self.latent_size = latent_size

    def train(self, batches, gen_optimizer, disc_optimizer):
        self.gen_optimizer, self.disc_optimizer = gen_optimizer, disc_optimizer
        for real in batches:
            noise = torch.randn(real.size(0), self.latent_size)
            fake = self.gen_model(noise)
            gen_loss = self._gen_loss(fake)
            self._disc_train_func(real, fake)
            self._gen_train_func(gen_loss)

    def _gen_loss(self, fake):
        return F.binary_cross_entropy_with_logits(self.disc_model(fake), torch.ones(fake.size(0), 1))

    def _disc_train_func(self, real, fake):
        raise NotImplementedError

    def _gen_train_func(self, gen_loss):
        self.gen_optimizer.zero_grad()
        gen_loss.backward()
        self.gen_optimizer.step()
