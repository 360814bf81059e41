# source: minimal PPO implementation (clipped objective) written from the paper, single-file
# advantages = returns - values (values not detached), normalised in place with -= mean and /= std before the combined loss
import torch
import torch.nn as nn

torch.manual_seed(0)

OBS_DIM, N_ACTIONS = 5, 4


class Policy(nn.Module):
    def __init__(self, hidden=64):
        super().__init__()
        self.actor = nn.Sequential(nn.Linear(OBS_DIM, hidden), nn.Tanh(), nn.Linear(hidden, N_ACTIONS))
        self.critic = nn.Sequential(nn.Linear(OBS_DIM, hidden), nn.Tanh(), nn.Linear(hidden, 1))

    def forward(self, obs):
        return self.actor(obs), self.critic(obs).squeeze(-1)


def collect_rollout(policy, n=64):
    obs = torch.randn(n, OBS_DIM)
    with torch.no_grad():
        logits, _ = policy(obs)
        dist = torch.distributions.Categorical(logits=logits)
        actions = dist.sample()
        old_logp = dist.log_prob(actions)
    rewards = (actions == 2).float() + 0.1 * torch.randn(n)
    returns = rewards  # one-step episodes
    return obs, actions, old_logp, returns


def ppo_update(policy, opt, batch, clip=0.2, epochs=2, vf_coef=0.5):
    obs, actions, old_logp, returns = batch
    for epoch in range(epochs):
        logits, values = policy(obs)
        dist = torch.distributions.Categorical(logits=logits)
        logp = dist.log_prob(actions)
        ratio = torch.exp(logp - old_logp)

        adv = returns - values
        adv -= adv.mean()
        adv /= adv.std() + 1e-8  # culprit

        surr1 = ratio * adv
        surr2 = torch.clamp(ratio, 1 - clip, 1 + clip) * adv
        policy_loss = -torch.min(surr1, surr2).mean()
        value_loss = (returns - values).pow(2).mean()
        loss = policy_loss + vf_coef * value_loss - 0.01 * dist.entropy().mean()

        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"epoch {epoch}: loss={loss.item():.4f}")


def main():
    policy = Policy()
    opt = torch.optim.Adam(policy.parameters(), lr=3e-4)
    for it in range(2):
        ppo_update(policy, opt, collect_rollout(policy))


if __name__ == "__main__":
    main()
