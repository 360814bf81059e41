# intended: safe
# TD3-style critic update followed by a Polyak (soft) update of the target networks,
# done in place under torch.no_grad() after optimizer.step().
import copy
import torch
import torch.nn as nn


def soft_update(target, source, tau):
    with torch.no_grad():
        for tp, sp in zip(target.parameters(), source.parameters()):
            tp.mul_(1.0 - tau)
            tp.add_(sp, alpha=tau)


def main():
    torch.manual_seed(0)
    obs_dim, act_dim = 6, 2
    actor = nn.Sequential(nn.Linear(obs_dim, 32), nn.ReLU(), nn.Linear(32, act_dim), nn.Tanh())
    critic = nn.Sequential(nn.Linear(obs_dim + act_dim, 32), nn.ReLU(), nn.Linear(32, 1))
    actor_t, critic_t = copy.deepcopy(actor), copy.deepcopy(critic)
    c_opt = torch.optim.Adam(critic.parameters(), lr=1e-3)
    gamma, tau = 0.99, 0.005
    for step in range(4):
        s = torch.randn(16, obs_dim)
        a = torch.rand(16, act_dim) * 2 - 1
        r = torch.randn(16, 1)
        s2 = torch.randn(16, obs_dim)
        with torch.no_grad():
            a2 = actor_t(s2)
            a2 += (0.2 * torch.randn_like(a2)).clamp_(-0.5, 0.5)
            a2.clamp_(-1, 1)
            y = r + gamma * critic_t(torch.cat([s2, a2], 1))
        q = critic(torch.cat([s, a], 1))
        loss = nn.functional.mse_loss(q, y)
        c_opt.zero_grad()
        loss.backward()
        c_opt.step()
        soft_update(critic_t, critic, tau)
        soft_update(actor_t, actor, tau)
        print(f"step {step}: critic loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
