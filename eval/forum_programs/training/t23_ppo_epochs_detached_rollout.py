# intended: safe
# PPO: rollout collected under no_grad, advantages normalised in place,
# several epochs of minibatch updates over the stored rollout.
import torch
import torch.nn as nn
from torch.distributions import Categorical


class ActorCritic(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(4, 32), nn.Tanh())
        self.pi = nn.Linear(32, 2)
        self.v = nn.Linear(32, 1)

    def forward(self, s):
        h = self.body(s)
        return Categorical(logits=self.pi(h)), self.v(h).squeeze(-1)


def main():
    torch.manual_seed(0)
    ac = ActorCritic()
    opt = torch.optim.Adam(ac.parameters(), lr=3e-4)
    states = torch.randn(32, 4)
    with torch.no_grad():
        dist, values = ac(states)
        actions = dist.sample()
        old_log_probs = dist.log_prob(actions)
    returns = torch.randn(32)
    advantages = returns - values
    advantages -= advantages.mean()
    advantages /= advantages.std() + 1e-8
    for epoch in range(3):
        for idx in torch.randperm(32).split(8):
            dist, v = ac(states[idx])
            ratio = (dist.log_prob(actions[idx]) - old_log_probs[idx]).exp()
            adv = advantages[idx]
            pg = -torch.min(ratio * adv, ratio.clamp(0.8, 1.2) * adv).mean()
            loss = pg + 0.5 * (returns[idx] - v).pow(2).mean() - 0.01 * dist.entropy().mean()
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(ac.parameters(), 0.5)
            opt.step()
        print("epoch", epoch, round(loss.item(), 4))


if __name__ == "__main__":
    main()
