# intended: safe
# SAC actor: mean and log_std taken as slices of one head output, log_std clamped in place before exp()
import torch
import torch.nn as nn


class Actor(nn.Module):
    def __init__(self, obs_dim, act_dim):
        super().__init__()
        self.act_dim = act_dim
        self.trunk = nn.Sequential(nn.Linear(obs_dim, 32), nn.ReLU())
        self.head = nn.Linear(32, 2 * act_dim)

    def forward(self, obs):
        out = self.head(self.trunk(obs))
        mu = out[:, : self.act_dim]
        log_std = out[:, self.act_dim :]
        log_std.clamp_(-5.0, 2.0)
        std = log_std.exp()
        eps = torch.randn_like(mu)
        a = torch.tanh(mu + std * eps)
        logp = (-0.5 * eps.pow(2) - log_std).sum(-1) - torch.log(1 - a.pow(2) + 1e-6).sum(-1)
        return a, logp


def main():
    torch.manual_seed(0)
    actor = Actor(5, 2)
    q = nn.Linear(7, 1)
    obs = torch.randn(4, 5)
    a, logp = actor(obs)
    loss = (0.2 * logp - q(torch.cat([obs, a], -1)).squeeze(-1)).mean()
    loss.backward()
    print(actor.head.weight.grad.norm().item())


if __name__ == "__main__":
    main()
