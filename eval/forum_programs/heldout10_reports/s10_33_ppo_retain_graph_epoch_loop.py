# source: https://github.com/DarylRodrigo/rl_lib/pull/12
# PPO learn(): values/advantages computed once with grad outside the K-epoch loop; loss.backward(retain_graph=True) + optimiser.step() per epoch
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical

torch.manual_seed(0)


class Config:
    state_dim = 8
    action_dim = 4
    epoch = 4
    gamma = 0.99
    gae_lambda = 0.95
    eps_clip = 0.2
    entropy_beta = 0.01
    lr = 3e-4
    n_steps = 32


class ActorCritic(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(config.state_dim, 64), nn.Tanh())
        self.actor = nn.Linear(64, config.action_dim)
        self.critic = nn.Linear(64, 1)

    def act(self, state):
        h = self.body(state)
        dist = Categorical(logits=self.actor(h))
        action = dist.sample()
        return action, dist.log_prob(action)

    def evaluate(self, state, action):
        h = self.body(state)
        dist = Categorical(logits=self.actor(h))
        return dist.log_prob(action), self.critic(h).squeeze(-1), dist.entropy()


class Memory:
    def __init__(self):
        self.states, self.actions, self.log_probs, self.rewards, self.dones = [], [], [], [], []


class PPO:
    def __init__(self, config):
        self.config = config
        self.policy = ActorCritic(config)
        self.optimiser = torch.optim.Adam(self.policy.parameters(), lr=config.lr)

    def compute_gae(self, rewards, values, dones):
        advantages = torch.zeros_like(rewards)
        last_adv = 0.0
        for t in reversed(range(len(rewards))):
            next_value = values[t + 1] if t + 1 < len(values) else 0.0
            delta = rewards[t] + self.config.gamma * next_value * (1 - dones[t]) - values[t]
            last_adv = delta + self.config.gamma * self.config.gae_lambda * (1 - dones[t]) * last_adv
            advantages[t] = last_adv
        return advantages

    def learn(self, memory):
        states = torch.stack(memory.states)
        actions = torch.stack(memory.actions)
        old_log_probs = torch.stack(memory.log_probs).detach()
        rewards = torch.tensor(memory.rewards)
        dones = torch.tensor(memory.dones)

        _, old_values, _ = self.policy.evaluate(states, actions)
        advantages = self.compute_gae(rewards, old_values.detach(), dones)
        returns = advantages + old_values  # keeps the critic graph of old_values alive

        for _ in range(self.config.epoch):
            log_probs, values, entropy = self.policy.evaluate(states, actions)
            ratios = torch.exp(log_probs - old_log_probs)
            surrogate_1 = ratios * advantages
            surrogate_2 = torch.clamp(ratios, 1 - self.config.eps_clip, 1 + self.config.eps_clip) * advantages

            value_loss_unclipped = (values - returns) ** 2
            values_clipped = old_values + torch.clamp(values - old_values, -self.config.eps_clip, self.config.eps_clip)
            value_loss_clipped = (values_clipped - returns) ** 2
            value_loss = 0.5 * torch.mean(torch.max(value_loss_clipped, value_loss_unclipped))

            pg_loss = -torch.min(surrogate_1, surrogate_2).mean()
            entropy_loss = entropy.mean()
            loss = pg_loss + value_loss - self.config.entropy_beta * entropy_loss

            # calculate gradient
            self.optimiser.zero_grad()
            loss.backward(retain_graph=True)
            self.optimiser.step()  # culprit
        return loss.item()


def collect(agent, config):
    memory = Memory()
    state = torch.randn(config.state_dim)
    for t in range(config.n_steps):
        with torch.no_grad():
            action, log_prob = agent.policy.act(state)
        memory.states.append(state)
        memory.actions.append(action)
        memory.log_probs.append(log_prob)
        memory.rewards.append(float(action.item() == 1))
        memory.dones.append(float(t % 10 == 9))
        state = torch.randn(config.state_dim)
    return memory


config = Config()
agent = PPO(config)
for update in range(2):
    mem = collect(agent, config)
    print("update", update, "loss", agent.learn(mem))
