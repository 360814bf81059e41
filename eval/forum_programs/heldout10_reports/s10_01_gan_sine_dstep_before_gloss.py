# source: https://github.com/pytorch/pytorch/issues/39141
# GAN fitting sin(x): D and G losses built from one forward, D optimizer steps before G_loss.backward (retain_graph)
import torch
import torch.nn as nn

torch.manual_seed(0)

BATCH_SIZE = 64
LR_G = 0.0001
LR_D = 0.0001
N_IDEAS = 5
ART_COMPONENTS = 15
PAINT_POINTS = torch.linspace(-1, 1, ART_COMPONENTS).unsqueeze(0).repeat(BATCH_SIZE, 1)


def artist_works():
    # painting from the famous artist (real target)
    r = 0.02 * torch.randn(1, ART_COMPONENTS)
    paintings = torch.sin(PAINT_POINTS * 3.141592653589793) + r
    return paintings.float()


G = nn.Sequential(
    nn.Linear(N_IDEAS, 128),
    nn.ReLU(),
    nn.Linear(128, ART_COMPONENTS),
)

D = nn.Sequential(
    nn.Linear(ART_COMPONENTS, 128),
    nn.ReLU(),
    nn.Linear(128, 1),
    nn.Sigmoid(),
)

opt_D = torch.optim.Adam(D.parameters(), lr=LR_D)
opt_G = torch.optim.Adam(G.parameters(), lr=LR_G)


def train_step():
    artist_paintings = artist_works()
    G_ideas = torch.randn(BATCH_SIZE, N_IDEAS, requires_grad=True)
    G_paintings = G(G_ideas)

    prob_artist0 = D(artist_paintings)
    prob_artist1 = D(G_paintings)

    D_loss = -torch.mean(torch.log(prob_artist0) + torch.log(1. - prob_artist1))
    G_loss = torch.mean(torch.log(1. - prob_artist1))

    opt_D.zero_grad()
    D_loss.backward(retain_graph=True)  # reusing computational graph
    opt_D.step()  # culprit

    opt_G.zero_grad()
    G_loss.backward()
    opt_G.step()
    return D_loss.item(), G_loss.item()


for step in range(20):
    d, g = train_step()
    if step % 10 == 0:
        print(f"step {step}: D_loss={d:.4f} G_loss={g:.4f}")
