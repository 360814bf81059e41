# Source: https://github.com/pytorch/pytorch/issues/39141 (simple GAN fitting sin(x) fails on pytorch 1.5; the in-place change is opt_D.step() before the generator loss is back-propagated through D; fix in MorvanZhou/PyTorch-Tutorial PR #91)
# Unit kind: cross-file
import torch

from nets import make_discriminator, make_generator
from trainer import GANTrainer

torch.manual_seed(0)
G, D = make_generator(5, 15), make_discriminator(15)
trainer = GANTrainer(G, D, lr=1e-4)
real = torch.sin(torch.linspace(-1, 1, 15) * 3.14159).repeat(16, 1)
print(trainer.train_step(real, torch.randn(16, 5)))
