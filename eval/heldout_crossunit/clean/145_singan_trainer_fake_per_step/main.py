# Source: tamarott/SinGAN#148 and PR #117 review (generate a new fake for each generator step).
# Clean look-alike of hazard/068: same package, the fake is recomputed inside the loop.
# Unit kind: file.
import torch

from models import discriminator, generator
from trainer.training import train_single_scale

torch.manual_seed(0)
netG, netD = generator(), discriminator()
optimizerG = torch.optim.Adam(netG.parameters(), lr=5e-4, betas=(0.5, 0.999))
train_single_scale(netD, netG, optimizerG, torch.randn(1, 3, 8, 8), torch.zeros(1, 3, 8, 8))
print("done")
