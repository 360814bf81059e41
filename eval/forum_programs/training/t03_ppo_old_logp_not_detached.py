# intended: AGI001
# PPO: several optimisation epochs over one stored rollout. old_log_probs were
# recorded during the rollout without no_grad / detach.
import torch
import torch.nn as nn
from torch.distributions import Categorical


def main():
    torch.manual_seed(0)
    policy = nn.Sequential(nn.Linear(4, 32), nn.Tanh(), nn.Linear(32, 2))
    opt = torch.optim.Adam(policy.parameters(), lr=3e-4)
    clip_eps, n_epochs = 0.2, 4

    # rollout
    states = torch.randn(20, 4)
    dist = Categorical(logits=policy(states))
    actions = dist.sample()
    old_log_probs = dist.log_prob(actions)
    advantages = torch.randn(20)

    for epoch in range(n_epochs):
        new_log_probs = Categorical(logits=policy(states)).log_prob(actions)
        ratio = torch.exp(new_log_probs - old_log_probs)
        surr1 = ratio * advantages
        surr2 = torch.clamp(ratio, 1 - clip_eps, 1 + clip_eps) * advantages
        loss = -torch.min(surr1, surr2).mean()
        opt.zero_grad()
        loss.backward(retain_graph=True)
        opt.step()  # culprit
        print("epoch", epoch, "loss", round(loss.item(), 4))


if __name__ == "__main__":
    main()
