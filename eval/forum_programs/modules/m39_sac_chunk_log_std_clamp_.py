# intended: AGI003
# SAC actor: mean and log_std from .chunk(2, -1), log_std clamped in place
import torch
import torch.nn as nn


class Actor(nn.Module):
    def __init__(self, obs_dim, act_dim):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, 32), nn.ReLU(), nn.Linear(32, 2 * act_dim))

    def forward(self, obs):
        mu, log_std = self.net(obs).chunk(2, dim=-1)
        log_std.clamp_(-5.0, 2.0)  # culprit
        std = log_std.exp()
        dist = torch.distributions.Normal(mu, std)
        a = dist.rsample()
        return torch.tanh(a), dist.log_prob(a).sum(-1)


def main():
    torch.manual_seed(0)
    actor = Actor(5, 2)
    obs = torch.randn(4, 5)
    a, logp = actor(obs)
    loss = (0.2 * logp - a.sum(-1)).mean()
    loss.backward()
    print(loss.item())


if __name__ == "__main__":
    main()
