# source: Spinning Up DDPG update order: critic step first, then actor loss with critic params frozen, then Polyak averaging
# DDPG update: critic step, then a fresh actor loss through the (temporarily frozen) updated critic, then target Polyak update.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Actor(nn.Module):
    def __init__(self, obs_dim=5, act_dim=2):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, 32), nn.ReLU(), nn.Linear(32, act_dim), nn.Tanh())

    def forward(self, s):
        return self.net(s)


class Critic(nn.Module):
    def __init__(self, obs_dim=5, act_dim=2):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim + act_dim, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, s, a):
        return self.net(torch.cat([s, a], dim=-1)).squeeze(-1)


actor, critic = Actor(), Critic()
actor_t, critic_t = Actor(), Critic()
actor_t.load_state_dict(actor.state_dict())
critic_t.load_state_dict(critic.state_dict())
actor_opt = torch.optim.Adam(actor.parameters(), lr=1e-4)
critic_opt = torch.optim.Adam(critic.parameters(), lr=1e-3)
gamma, tau = 0.99, 0.005

for it in range(3):
    s, a = torch.randn(32, 5), torch.rand(32, 2) * 2 - 1
    r, s2, done = torch.randn(32), torch.randn(32, 5), (torch.rand(32) < 0.1).float()
    with torch.no_grad():
        target = r + gamma * (1 - done) * critic_t(s2, actor_t(s2))
    critic_loss = F.mse_loss(critic(s, a), target)
    critic_opt.zero_grad()
    critic_loss.backward()
    critic_opt.step()

    for p in critic.parameters():
        p.requires_grad_(False)
    actor_loss = -critic(s, actor(s)).mean()
    actor_opt.zero_grad()
    actor_loss.backward()
    actor_opt.step()
    for p in critic.parameters():
        p.requires_grad_(True)
    with torch.no_grad():
        for net, tgt in ((actor, actor_t), (critic, critic_t)):
            for p, tp in zip(net.parameters(), tgt.parameters()):
                tp.mul_(1 - tau).add_(p, alpha=tau)
    print(it, critic_loss.item(), actor_loss.item())
