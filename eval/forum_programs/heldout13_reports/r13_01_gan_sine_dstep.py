# source: https://github.com/pytorch/pytorch/issues/39141 ("RuntimeError: one of the variables needed for gradient computation has been modified by an inplace operation?")
# Trains a tiny MLP generator/discriminator pair to imitate noisy sine-curve "paintings".
import math
import torch
import torch.nn as nn

torch.manual_seed(0)

# Hyper Parameters
BATCH_SIZE = 16
LR_G = 1e-4
LR_D = 1e-4
N_IDEAS = 5
ART_COMPONENTS = 15
PAINT_POINTS = torch.linspace(-1, 1, ART_COMPONENTS).repeat(BATCH_SIZE, 1)


def artist_works():
    # painting from the famous artist (real target)
    r = 0.02 * torch.randn(1, ART_COMPONENTS)
    paintings = torch.sin(PAINT_POINTS * math.pi) + r
    return paintings


G = nn.Sequential(                      # Generator
    nn.Linear(N_IDEAS, 32),             # random ideas
    nn.ReLU(),
    nn.Linear(32, ART_COMPONENTS),      # making a painting from these random ideas
)

D = nn.Sequential(                      # Discriminator
    nn.Linear(ART_COMPONENTS, 32),      # receive art work either from the artist or a newbie like G
    nn.ReLU(),
    nn.Linear(32, 1),
    nn.Sigmoid(),                       # probability that the art work is made by the artist
)

opt_D = torch.optim.Adam(D.parameters(), lr=LR_D)
opt_G = torch.optim.Adam(G.parameters(), lr=LR_G)


def train_step(step):
    artist_paintings = artist_works()
    G_ideas = torch.randn(BATCH_SIZE, N_IDEAS)
    G_paintings = G(G_ideas)

    prob_artist0 = D(artist_paintings)   # D tries to increase this prob
    prob_artist1 = D(G_paintings)        # D tries to reduce this prob

    D_loss = -torch.mean(torch.log(prob_artist0) + torch.log(1. - prob_artist1))
    G_loss = torch.mean(torch.log(1. - prob_artist1))

    opt_D.zero_grad()
    D_loss.backward(retain_graph=True)   # reuse computational graph
    opt_D.step()  # culprit

    opt_G.zero_grad()
    G_loss.backward()
    opt_G.step()
    return D_loss.item(), G_loss.item()


for step in range(20):
    d, g = train_step(step)
    if step % 5 == 0:
        print(f"step {step}: D={d:.3f} G={g:.3f}")
