# WGAN-style weight clipping and a max-norm constraint, all inside no_grad / .data
import torch
import torch.nn as nn


def clip_weights(model, c):
    with torch.no_grad():
        for p in model.parameters():
            p.clamp_(-c, c)


def max_norm_(layer, max_val=1.0):
    w = layer.weight.data
    norms = w.norm(dim=1, keepdim=True).clamp(min=max_val)
    w.mul_(max_val / norms)


def main():
    torch.manual_seed(0)
    critic = nn.Sequential(nn.Linear(4, 8), nn.LeakyReLU(0.2, inplace=True), nn.Linear(8, 1))
    opt = torch.optim.RMSprop(critic.parameters(), lr=1e-3)
    for _ in range(3):
        loss = critic(torch.randn(6, 4)).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        clip_weights(critic, 0.01)
        max_norm_(critic[0])
    print(loss.item())


if __name__ == "__main__":
    main()
