# intended: safe
# like: SAC implementations that update log_alpha before the actor loss backward -- forum asks whether alpha_optim.step() breaks the actor graph
import torch
import torch.nn as nn
import torch.nn.functional as F


class Actor(nn.Module):
    def __init__(self, obs_dim=5, act_dim=2, hid=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, hid), nn.ReLU(), nn.Linear(hid, hid), nn.ReLU())
        self.mu = nn.Linear(hid, act_dim)
        self.log_std = nn.Linear(hid, act_dim)

    def forward(self, obs):
        h = self.net(obs)
        mu, log_std = self.mu(h), self.log_std(h).clamp(-20, 2)
        std = log_std.exp()
        u = mu + std * torch.randn_like(mu)
        a = torch.tanh(u)
        logp = (-0.5 * ((u - mu) / std) ** 2 - log_std - 0.9189385).sum(-1)
        logp = logp - torch.log(1 - a.pow(2) + 1e-6).sum(-1)
        return a, logp


class Critic(nn.Module):
    def __init__(self, obs_dim=5, act_dim=2, hid=32):
        super().__init__()
        self.q = nn.Sequential(nn.Linear(obs_dim + act_dim, hid), nn.ReLU(), nn.Linear(hid, 1))

    def forward(self, obs, act):
        return self.q(torch.cat([obs, act], -1)).squeeze(-1)


def update(batch, actor, critic, critic_targ, log_alpha, opts, gamma=0.99, target_entropy=-2.0):
    actor_opt, critic_opt, alpha_opt = opts
    obs, act, rew, obs2, done = batch
    alpha = log_alpha.exp()

    with torch.no_grad():
        a2, logp_a2 = actor(obs2)
        backup = rew + gamma * (1 - done) * (critic_targ(obs2, a2) - alpha * logp_a2)
    loss_q = F.mse_loss(critic(obs, act), backup)
    critic_opt.zero_grad()
    loss_q.backward()
    critic_opt.step()

    pi, logp_pi = actor(obs)
    loss_pi = (alpha * logp_pi - critic(obs, pi)).mean()
    alpha_loss = -(log_alpha * (logp_pi + target_entropy).detach()).mean()

    alpha_opt.zero_grad()
    alpha_loss.backward()
    alpha_opt.step()

    actor_opt.zero_grad()
    loss_pi.backward()
    actor_opt.step()

    with torch.no_grad():
        for p, p_targ in zip(critic.parameters(), critic_targ.parameters()):
            p_targ.mul_(0.995).add_(0.005 * p)
    return loss_q.item(), loss_pi.item(), alpha.item()


def main():
    torch.manual_seed(0)
    actor, critic, critic_targ = Actor(), Critic(), Critic()
    critic_targ.load_state_dict(critic.state_dict())
    for p in critic_targ.parameters():
        p.requires_grad = False
    log_alpha = torch.zeros(1, requires_grad=True)
    opts = (torch.optim.Adam(actor.parameters(), lr=3e-4), torch.optim.Adam(critic.parameters(), lr=3e-4),
            torch.optim.Adam([log_alpha], lr=3e-4))
    for it in range(3):
        batch = (torch.randn(16, 5), torch.rand(16, 2) * 2 - 1, torch.randn(16), torch.randn(16, 5), torch.zeros(16))
        print(it, update(batch, actor, critic, critic_targ, log_alpha, opts))


if __name__ == "__main__":
    main()
