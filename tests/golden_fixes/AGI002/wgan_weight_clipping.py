"""WGAN weight clipping written on the parameters themselves outside ``no_grad``: ``p.clamp_(-c, c)`` on a
leaf that requires grad raises at once (the original code clipped ``p.data``)."""
import torch
from torch import nn


def run():
    torch.manual_seed(0)
    critic = nn.Sequential(nn.Linear(3, 8), nn.ReLU(), nn.Linear(8, 1))
    opt = torch.optim.RMSprop(critic.parameters(), lr=5e-3)
    real, fake = torch.randn(4, 3), torch.randn(4, 3)
    opt.zero_grad()
    score_real, score_fake = critic(real), critic(fake)
    loss = score_fake.mean() - score_real.mean()
    loss.backward()
    opt.step()
    for p in critic.parameters():
        with torch.no_grad():
            p.clamp_(-0.01, 0.01)  # expect: AGI002
    return score_real, score_fake


if __name__ == "__main__":
    print(run())
