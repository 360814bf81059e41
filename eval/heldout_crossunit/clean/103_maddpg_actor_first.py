# Source: starry-sky6688/MADDPG#27 (the maintainer's suggestion: move the critic update so the
# actor loss is backpropagated before the critic weights change).
# Clean look-alike of hazard/003: same helpers, actor updated first.
# Unit kind: function.
import torch
import torch.nn as nn

torch.manual_seed(0)
actor = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 2), nn.Tanh())
critic = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 1))
actor_optim = torch.optim.Adam(actor.parameters(), lr=1e-3)
critic_optim = torch.optim.Adam(critic.parameters(), lr=1e-3)


def update_critic(loss):
    critic_optim.zero_grad()
    loss.backward()
    critic_optim.step()


def update_actor(loss):
    actor_optim.zero_grad()
    loss.backward()
    actor_optim.step()


def train(o, u, r):
    q_value = critic(torch.cat([o, u], dim=1))
    critic_loss = (r - q_value).pow(2).mean()
    u_new = actor(o)
    actor_loss = -critic(torch.cat([o, u_new], dim=1)).mean()
    update_actor(actor_loss)
    update_critic(critic_loss)


train(torch.randn(8, 4), torch.randn(8, 2), torch.randn(8, 1))
print("done")
