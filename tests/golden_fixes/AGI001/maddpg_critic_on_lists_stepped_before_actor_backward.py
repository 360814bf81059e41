"""A MADDPG agent update (the starry-sky6688 MADDPG shape): the centralised critic takes the lists of
every agent's observations and actions and concatenates them. The actor loss is built through the critic
before the critic's update; ``critic_optim.step()`` then changes the critic's weights in place, and the
actor's backward runs back through the critic layers that saved them."""
import torch
import torch.nn as nn


class Critic(nn.Module):
    def __init__(self, obs=3, act=2, agents=2):
        super().__init__()
        self.fc1 = nn.Linear(agents * (obs + act), 16)
        self.q = nn.Linear(16, 1)

    def forward(self, observations, actions):
        x = torch.cat(observations + actions, dim=1)
        return self.q(torch.relu(self.fc1(x)))


def run():
    torch.manual_seed(0)
    actor, critic = nn.Linear(3, 2), Critic()
    actor_optim = torch.optim.Adam(actor.parameters(), lr=1e-4)
    critic_optim = torch.optim.Adam(critic.parameters(), lr=1e-3)
    o = [torch.randn(4, 3) for _ in range(2)]
    u = [torch.rand(4, 2) for _ in range(2)]
    target_q = torch.randn(4, 1)
    critic_loss = (target_q - critic(o, u)).pow(2).mean()
    u[0] = torch.tanh(actor(o[0]))
    actor_loss = -critic(o, u).mean()
    critic_optim.zero_grad()
    critic_loss.backward()
    critic_optim.step()  # expect: AGI001
    actor_optim.zero_grad()
    actor_loss.backward()
    actor_optim.step()
    return actor_loss.detach()


if __name__ == "__main__":
    print(run())
