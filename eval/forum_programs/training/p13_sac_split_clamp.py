# intended: AGI003
# SAC gaussian policy: clamping log_std in place after split.
import torch
import torch.nn as nn

class GaussianPolicy(nn.Module):
    def __init__(self, obs_dim, act_dim):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, 64), nn.ReLU(), nn.Linear(64, 2 * act_dim))
        self.act_dim = act_dim
    def forward(self, obs):
        mu, log_std = self.net(obs).split(self.act_dim, dim=-1)
        log_std.clamp_(-20, 2)  # culprit
        std = log_std.exp()
        eps = torch.randn_like(mu)
        u = mu + std * eps
        a = torch.tanh(u)
        logp = torch.distributions.Normal(mu, std).log_prob(u) - torch.log(1 - a.pow(2) + 1e-6)
        return a, logp.sum(-1)

def main():
    torch.manual_seed(0)
    pi = GaussianPolicy(4, 2)
    opt = torch.optim.Adam(pi.parameters(), lr=3e-4)
    obs = torch.randn(8, 4)
    a, logp = pi(obs)
    loss = (0.2 * logp - a.sum(-1)).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(loss.item())

if __name__ == "__main__":
    main()
