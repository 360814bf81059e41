# Source: https://github.com/pytorch/pytorch/issues/39141 (the GAN on pytorch 1.5: D is trained on a detached fake and stepped, then the generator loss uses a fresh D forward, as in the fix of MorvanZhou/PyTorch-Tutorial PR #91)
# Unit kind: cross-file
# Look-alike of hazard/008
import torch

from nets import make_discriminator, make_generator
from trainer import GANTrainer

torch.manual_seed(0)
G, D = make_generator(5, 15), make_discriminator(15)
trainer = GANTrainer(G, D, lr=1e-4)
real = torch.sin(torch.linspace(-1, 1, 15) * 3.14159).repeat(16, 1)
print(trainer.train_step(real, torch.randn(16, 5)))
