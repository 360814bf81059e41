import torch
import torch.nn.functional as F

from .base import BaseGanLearner


class StandardGanLearner(BaseGanLearner):
    def _disc_train_func(self, real, fake):
        real_loss = F.binary_cross_entropy_with_logits(self.disc_model(real), torch.ones(real.size(0), 1))
        fake_loss = F.binary_cross_entropy_with_logits(self.disc_model(fake.detach()), torch.zeros(fake.size(0), 1))
        self.disc_optimizer.zero_grad()
        (real_loss + fake_loss).backward()
        self.disc_optimizer.step()  # culprit
