# source: https://github.com/starry-sky6688/MADDPG/issues/27
# Fixed MADDPG update: the actor is backpropagated and stepped before the critic is updated.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Actor(nn.Module):
    def __init__(self, obs_dim, act_dim):
        super().__init__()
        self.fc1 = nn.Linear(obs_dim, 16)
        self.out = nn.Linear(16, act_dim)

    def forward(self, o):
        return torch.tanh(self.out(F.relu(self.fc1(o))))


class Critic(nn.Module):
    def __init__(self, obs_dim, act_dim):
        super().__init__()
        self.fc1 = nn.Linear(obs_dim + act_dim, 16)
        self.q = nn.Linear(16, 1)

    def forward(self, o, a):
        return self.q(F.relu(self.fc1(torch.cat([o, a], dim=1))))


class MADDPG:
    def __init__(self, obs_dim=4, act_dim=2, gamma=0.95):
        self.actor = Actor(obs_dim, act_dim)
        self.critic = Critic(obs_dim, act_dim)
        self.actor_target = Actor(obs_dim, act_dim)
        self.critic_target = Critic(obs_dim, act_dim)
        self.actor_target.load_state_dict(self.actor.state_dict())
        self.critic_target.load_state_dict(self.critic.state_dict())
        self.actor_optim = torch.optim.Adam(self.actor.parameters(), lr=1e-3)
        self.critic_optim = torch.optim.Adam(self.critic.parameters(), lr=1e-3)
        self.gamma = gamma

    def train(self, o, a, r, o_next):
        with torch.no_grad():
            a_next = self.actor_target(o_next)
            q_next = self.critic_target(o_next, a_next)
            target_q = r + self.gamma * q_next
        q_value = self.critic(o, a)
        critic_loss = F.mse_loss(q_value, target_q)

        actor_loss = -self.critic(o, self.actor(o)).mean()

        self.actor_optim.zero_grad()
        actor_loss.backward()
        self.actor_optim.step()

        self.critic_optim.zero_grad()
        critic_loss.backward()
        self.critic_optim.step()


agent = MADDPG()
for _ in range(2):
    o = torch.randn(8, 4)
    a = torch.rand(8, 2) * 2 - 1
    r = torch.randn(8, 1)
    o_next = torch.randn(8, 4)
    agent.train(o, a, r, o_next)
print("done")
