import torch
import torch.nn as nn


class Agent:
    def __init__(self, obs_dim, act_dim, n_agents):
        self.actor = nn.Sequential(nn.Linear(obs_dim, 16), nn.ReLU(), nn.Linear(16, act_dim), nn.Softmax(-1))
        self.critic = nn.Sequential(nn.Linear(n_agents * (obs_dim + act_dim), 16), nn.ReLU(), nn.Linear(16, 1))
        self.actor_optimizer = torch.optim.Adam(self.actor.parameters(), lr=1e-3)
        self.critic_optimizer = torch.optim.Adam(self.critic.parameters(), lr=1e-3)

    def learn_critic(self, critic_loss):
        self.critic_optimizer.zero_grad()
        critic_loss.backward(retain_graph=True)
        self.critic_optimizer.step()

    def learn_actor(self, actor_loss):
        self.actor_optimizer.zero_grad()
        actor_loss.backward(retain_graph=True)
        self.actor_optimizer.step()  # culprit
