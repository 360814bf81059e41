"""A PPO update whose advantages come from values that were not detached: ``adv.std()`` saves ``adv``
(its input, and its result), and ``adv /= adv.std() + 1e-8`` overwrites it; the clipped objective
(``torch.min(surr1, surr2)``) backpropagates through both."""
import torch
import torch.nn as nn


class Policy(nn.Module):
    def __init__(self, obs_dim=5, n_actions=4, hidden=16):
        super().__init__()
        self.actor = nn.Sequential(nn.Linear(obs_dim, hidden), nn.Tanh(), nn.Linear(hidden, n_actions))
        self.critic = nn.Sequential(nn.Linear(obs_dim, hidden), nn.Tanh(), nn.Linear(hidden, 1))

    def forward(self, obs):
        return self.actor(obs), self.critic(obs).squeeze(-1)


def ppo_update(policy, opt, obs, actions, old_logp, returns, clip=0.2):
    logits, values = policy(obs)
    logp = torch.log_softmax(logits, dim=-1).gather(1, actions[:, None]).squeeze(1)
    ratio = torch.exp(logp - old_logp)
    adv = returns - values
    adv -= adv.mean()
    adv = adv / (adv.std() + 1e-8)  # expect: AGI001
    surr1 = ratio * adv
    surr2 = torch.clamp(ratio, 1 - clip, 1 + clip) * adv
    loss = -torch.min(surr1, surr2).mean() + 0.5 * (returns - values).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss


def run():
    torch.manual_seed(0)
    policy = Policy()
    opt = torch.optim.SGD(policy.parameters(), lr=0.01)
    obs = torch.randn(16, 5)
    actions = torch.randint(0, 4, (16,))
    return ppo_update(policy, opt, obs, actions, torch.full((16,), -1.4), torch.randn(16))


if __name__ == "__main__":
    print(run())
