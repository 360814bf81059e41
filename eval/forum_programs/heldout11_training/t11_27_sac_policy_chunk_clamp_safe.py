# source: SAC Gaussian policy head that splits the network output into mean and log-std
# description: log_std from .chunk() is clamped out of place, producing a new tensor
import torch
import torch.nn as nn

torch.manual_seed(0)
policy = nn.Sequential(nn.Linear(3, 32), nn.ReLU(), nn.Linear(32, 4))
q_net = nn.Sequential(nn.Linear(3 + 2, 32), nn.ReLU(), nn.Linear(32, 1))
opt = torch.optim.Adam(policy.parameters(), lr=3e-4)
alpha = 0.2

for it in range(2):
    s = torch.randn(8, 3)
    mu, log_std = policy(s).chunk(2, dim=-1)
    log_std = log_std.clamp(-20, 2)
    std = log_std.exp()
    u = mu + std * torch.randn_like(mu)
    a = torch.tanh(u)
    logp = torch.distributions.Normal(mu, std).log_prob(u).sum(-1)
    logp = logp - torch.log(1 - a.pow(2) + 1e-6).sum(-1)
    q = q_net(torch.cat([s, a], dim=-1)).squeeze(-1)
    loss = (alpha * logp - q).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(it, loss.item())
