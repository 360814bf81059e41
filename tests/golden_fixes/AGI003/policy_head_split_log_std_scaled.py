"""A Gaussian policy head that splits its output into mean and log-std with ``split(n, -1)`` and clamps
the log-std in place: the halves are views of one output, which torch will not let you modify."""
import torch
from torch import nn


class GaussianPolicy(nn.Module):
    def __init__(self, obs_dim, act_dim):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_dim, 16), nn.Tanh())
        self.head = nn.Linear(16, 2 * act_dim)
        self.act_dim = act_dim

    def forward(self, obs):
        mu, log_std = self.head(self.body(obs)).split(self.act_dim, -1)
        log_std = log_std.clamp(-5.0, 2.0)  # expect: AGI003
        return mu, log_std.exp()


def run():
    torch.manual_seed(0)
    policy = GaussianPolicy(4, 2)
    mu, std = policy(torch.randn(3, 4))
    (mu.pow(2).sum() + std.sum()).backward()
    return mu, std


if __name__ == "__main__":
    print(run())
