# source: https://github.com/MorvanZhou/PyTorch-Tutorial/issues/89 ("406_GAN.py：报梯度计算时变量被inplace操作修改错误")
# Tutorial GAN that learns to paint sine-like curves: generator update first, then the discriminator.
import math
import torch
import torch.nn as nn

torch.manual_seed(1)

BATCH_SIZE = 16
LR_G = 1e-4
LR_D = 1e-4
N_IDEAS = 5
ART_COMPONENTS = 15
PAINT_POINTS = torch.linspace(-1, 1, ART_COMPONENTS).repeat(BATCH_SIZE, 1)


def artist_works():
    a = torch.rand(BATCH_SIZE, 1) + 1          # upper bound for the curve amplitude
    paintings = a * torch.sin(PAINT_POINTS * math.pi / 2)
    return paintings


G = nn.Sequential(
    nn.Linear(N_IDEAS, 32),
    nn.ReLU(),
    nn.Linear(32, ART_COMPONENTS),
)

D = nn.Sequential(
    nn.Linear(ART_COMPONENTS, 32),
    nn.ReLU(),
    nn.Linear(32, 1),
    nn.Sigmoid(),
)

opt_D = torch.optim.Adam(D.parameters(), lr=LR_D)
opt_G = torch.optim.Adam(G.parameters(), lr=LR_G)

for step in range(20):
    artist_paintings = artist_works()
    G_ideas = torch.randn(BATCH_SIZE, N_IDEAS, requires_grad=True)
    G_paintings = G(G_ideas)

    prob_artist1 = D(G_paintings)                # G tries to fool D
    G_loss = torch.mean(torch.log(1. - prob_artist1))
    opt_G.zero_grad()
    G_loss.backward()
    opt_G.step()

    prob_artist0 = D(artist_paintings)           # D tries to increase this prob
    prob_artist1 = D(G_paintings.detach())       # D tries to reduce this prob
    D_loss = -torch.mean(torch.log(prob_artist0) + torch.log(1. - prob_artist1))
    opt_D.zero_grad()
    D_loss.backward(retain_graph=True)           # reusing computational graph
    opt_D.step()

    if step % 5 == 0:
        print(f"step {step}: D accuracy {prob_artist0.mean().item():.3f} D_loss {D_loss.item():.3f}")
