# Source: pytorch/pytorch#39141 (GAN fitting sin(x); opt_D.step() runs before G's loss is
# backpropagated through D). Also MorvanZhou/PyTorch-Tutorial PR #91.
# Unit kind: function -- the step lives in a shared update(optim, loss) helper.
import torch
import torch.nn as nn

torch.manual_seed(0)
G = nn.Sequential(nn.Linear(5, 16), nn.ReLU(), nn.Linear(16, 15))
D = nn.Sequential(nn.Linear(15, 16), nn.ReLU(), nn.Linear(16, 1), nn.Sigmoid())
opt_D = torch.optim.Adam(D.parameters(), lr=1e-3)
opt_G = torch.optim.Adam(G.parameters(), lr=1e-3)


def update(optim, loss, retain=False):
    optim.zero_grad()
    loss.backward(retain_graph=retain)
    optim.step()  # culprit


def real_batch():
    x = torch.linspace(-1, 1, 15).repeat(8, 1)
    return torch.sin(x * 3.14159)


for step in range(2):
    ideas = torch.randn(8, 5)
    fake = G(ideas)
    prob_real = D(real_batch())
    prob_fake = D(fake)
    D_loss = -torch.mean(torch.log(prob_real) + torch.log(1.0 - prob_fake))
    G_loss = torch.mean(torch.log(1.0 - prob_fake))
    update(opt_D, D_loss, retain=True)
    update(opt_G, G_loss)
print("done")
