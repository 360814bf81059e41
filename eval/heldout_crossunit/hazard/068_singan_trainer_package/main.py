# Source: tamarott/SinGAN PR #126 ("It appears that the bug is coming from the OptimizerG step
# operation performing inplace operations on the Generator parameters"; SinGAN alternates several
# generator steps on one fake) and tamarott/SinGAN#137.
# Unit kind: file -- models.py (netG's convs save weights), trainer/training.py (reuses fake),
# trainer/steps.py (optimizerG.step()); relative import inside the trainer package.
import torch

from models import discriminator, generator
from trainer.training import train_single_scale

torch.manual_seed(0)
netG, netD = generator(), discriminator()
optimizerG = torch.optim.Adam(netG.parameters(), lr=5e-4, betas=(0.5, 0.999))
train_single_scale(netD, netG, optimizerG, torch.randn(1, 3, 8, 8), torch.zeros(1, 3, 8, 8))
print("done")
