"""A WGAN critic that clips its own weights through ``state_dict()`` in a method (state_dict hands out
detached tensors that share the parameters' version counters, so no leaf error stops the write), called
between the critic's forward passes and the backward: the second Linear saved its weight for its input's
gradient, and the backward raises. Clip after ``optimizer.step()`` instead."""
import torch
import torch.nn as nn


class Critic(nn.Module):
    def __init__(self):
        super().__init__()
        self.main = nn.Sequential(nn.Linear(2, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, x):
        return self.main(x)

    def clip_weights(self, c):
        for name, tensor in self.state_dict().items():
            tensor.clamp_(-c, c)  # expect: AGI001


def critic_step(critic, real, fake):
    loss = critic(fake).mean() - critic(real).mean()
    loss.backward()
    critic.clip_weights(0.01)
    return loss


def run():
    torch.manual_seed(0)
    critic = Critic()
    opt = torch.optim.RMSprop(critic.parameters(), lr=5e-5)
    real, fake = torch.randn(16, 2) + 2, torch.randn(16, 2)
    opt.zero_grad()
    loss = critic_step(critic, real, fake)
    opt.step()
    return loss


if __name__ == "__main__":
    print(run())
