import copy

import torch

from .actor_critic import Actor, Critic


class MADDPG:
    def __init__(self, obs_dim, act_dim, gamma=0.95):
        self.actor = Actor(obs_dim, act_dim)
        self.critic = Critic(obs_dim, act_dim)
        self.actor_target = copy.deepcopy(self.actor)
        self.critic_target = copy.deepcopy(self.critic)
        self.actor_optim = torch.optim.Adam(self.actor.parameters(), lr=1e-3)
        self.critic_optim = torch.optim.Adam(self.critic.parameters(), lr=1e-3)
        self.gamma = gamma

    def train(self, batch):
        o, u, r, o_next = batch["o"], batch["u"], batch["r"], batch["o_next"]
        with torch.no_grad():
            q_next = self.critic_target(o_next, self.actor_target(o_next))
            target_q = r + self.gamma * q_next
        q_value = self.critic(o, u)
        critic_loss = (target_q - q_value).pow(2).mean()
        actor_loss = -self.critic(o, self.actor(o)).mean()

        self.critic_optim.zero_grad()
        critic_loss.backward()
        self.critic_optim.step()  # culprit

        self.actor_optim.zero_grad()
        actor_loss.backward()
        self.actor_optim.step()
        return float(critic_loss), float(actor_loss)
