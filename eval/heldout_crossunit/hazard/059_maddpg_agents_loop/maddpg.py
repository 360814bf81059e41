import torch

from agent import Agent


class MADDPG:
    def __init__(self, n_agents=2, obs_dim=3, act_dim=2):
        self.agents = [Agent(obs_dim, act_dim, n_agents) for _ in range(n_agents)]

    def learn(self, states, actions, rewards):
        mu = torch.cat([ag.actor(states[i]) for i, ag in enumerate(self.agents)], dim=1)
        old = torch.cat([actions[i] for i in range(len(self.agents))], dim=1)
        flat_states = torch.cat(states, dim=1)
        for i, ag in enumerate(self.agents):
            critic_value = ag.critic(torch.cat([flat_states, old], 1)).squeeze(1)
            critic_loss = ((rewards[:, i] - critic_value) ** 2).mean()
            ag.learn_critic(critic_loss)
            actor_loss = -ag.critic(torch.cat([flat_states, mu], 1)).mean()
            ag.learn_actor(actor_loss)
