# intended: AGI001
# Advantage actor-critic with separate optimisers. Critic is updated first,
# then the actor loss (advantage = returns - values, not detached) is backpropagated.
import torch
from torch import nn
import torch.nn.functional as F


class Actor(nn.Module):
    def __init__(self, obs_dim, n_actions):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, 32), nn.ReLU(), nn.Linear(32, n_actions))

    def forward(self, obs):
        return F.log_softmax(self.net(obs), dim=-1)


class Critic(nn.Module):
    def __init__(self, obs_dim):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, obs):
        return self.net(obs).squeeze(-1)


def main():
    torch.manual_seed(0)
    actor, critic = Actor(6, 3), Critic(6)
    actor_opt = torch.optim.Adam(actor.parameters(), lr=1e-3)
    critic_opt = torch.optim.Adam(critic.parameters(), lr=1e-3)
    obs = torch.randn(12, 6)
    actions = torch.randint(0, 3, (12,))
    returns = torch.randn(12)
    for update in range(2):
        values = critic(obs)
        advantage = returns - values
        critic_loss = advantage.pow(2).mean()
        critic_opt.zero_grad()
        critic_loss.backward(retain_graph=True)
        critic_opt.step()  # culprit

        logp = actor(obs).gather(1, actions[:, None]).squeeze(1)
        actor_loss = -(logp * advantage).mean()
        actor_opt.zero_grad()
        actor_loss.backward()
        actor_opt.step()
        print(update, critic_loss.item(), actor_loss.item())


if __name__ == "__main__":
    main()
