# Source: https://github.com/chojw/genb/issues/6 (chojw/genb#6: "Calculate the generator loss first and backward but not step, and then step after the discriminator calculates the loss")
# Unit kind: cross-function
# Look-alike of hazard/003: the generator helper only backpropagates; both optimizers
# step after the discriminator's backward, the last one through the generator.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def generator_backward(opt_g, g_loss):
    opt_g.zero_grad()
    g_loss.backward(retain_graph=True)


def discriminator_update(opt_d, d_loss):
    opt_d.zero_grad()
    d_loss.backward()
    opt_d.step()


genb = nn.Sequential(nn.Linear(6, 8), nn.Tanh(), nn.Linear(8, 3))
disc = nn.Sequential(nn.Linear(3, 8), nn.ReLU(), nn.Linear(8, 1))
opt_g = torch.optim.Adam(genb.parameters(), lr=1e-3)
opt_d = torch.optim.Adam(disc.parameters(), lr=1e-3)

v = torch.randn(4, 6)
answers = torch.rand(4, 3)
pred_g = genb(v)
ones, zeros = torch.ones(4, 1), torch.zeros(4, 1)
g_loss = F.binary_cross_entropy_with_logits(pred_g, answers) + F.binary_cross_entropy_with_logits(disc(pred_g), ones)
d_loss = F.binary_cross_entropy_with_logits(disc(pred_g), zeros) + F.binary_cross_entropy_with_logits(disc(answers), ones)
generator_backward(opt_g, g_loss)
discriminator_update(opt_d, d_loss)
opt_g.step()
print("done")
