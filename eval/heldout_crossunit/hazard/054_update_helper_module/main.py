# Source: xaggi/OGNet#8 (later PyTorch versions raise the in-place error; the suggested order is
# zero_grad -> backward -> step) and pytorch/pytorch#39141. Both losses are built from one
# discriminator pass; the discriminator is updated first.
# Unit kind: file -- the optimizer step is in train_utils.py, the networks in nets.py.
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
d_fake = d(g_output)
d_real = d(real)
d_loss = bce(d_real, torch.ones(4, 1)) + bce(d_fake, torch.zeros(4, 1))
g_loss = bce(d_fake, torch.ones(4, 1))
update(d_optim, d_loss, retain_graph=True)
update(g_optim, g_loss)
print("done")
