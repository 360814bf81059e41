# Source: https://github.com/chojw/genb/issues/6 (chojw/genb#6: "modified by an inplace operation ... at the second gradient backward (train the discriminator)"; fix: backward the generator loss but step only after the discriminator loss)
# Unit kind: cross-function
# The generator's output feeds both losses; the generator helper steps its optimizer
# before the discriminator loss, whose graph runs back through the generator, is
# backpropagated.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def generator_update(opt_g, g_loss):
    opt_g.zero_grad()
    g_loss.backward(retain_graph=True)
    opt_g.step()  # culprit


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
generator_update(opt_g, g_loss)
discriminator_update(opt_d, d_loss)
print("done")
