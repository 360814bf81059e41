# Source: pytorch/pytorch#39141 (fix: train D on fake.detach(), then recompute D(fake) for G) and
# xaggi/OGNet#8.
# Clean look-alike of hazard/054: same update() helper in train_utils.py.
# Unit kind: file.
import torch

from nets import discriminator, generator
from train_utils import update

torch.manual_seed(0)
g, d = generator(), discriminator()
g_optim = torch.optim.Adam(g.parameters(), lr=2e-4)
d_optim = torch.optim.Adam(d.parameters(), lr=2e-4)
bce = torch.nn.BCELoss()
real = torch.rand(4, 8) * 2 - 1
g_output = g(torch.randn(4, 4))
d_fake = d(g_output.detach())
d_real = d(real)
d_loss = bce(d_real, torch.ones(4, 1)) + bce(d_fake, torch.zeros(4, 1))
update(d_optim, d_loss)
g_loss = bce(d(g_output), torch.ones(4, 1))
update(g_optim, g_loss)
print("done")
