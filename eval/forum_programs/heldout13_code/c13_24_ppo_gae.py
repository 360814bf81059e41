# source: vwxyzjn/cleanrl ppo.py (rollout storage, GAE, minibatch clipped-surrogate updates)
# PPO on a toy vector environment with a discrete-action agent, rollout buffers filled in place.
import torch
import torch.nn as nn
from torch.distributions.categorical import Categorical


def layer_init(layer, std=2 ** 0.5, bias_const=0.0):
    nn.init.orthogonal_(layer.weight, std)
    nn.init.constant_(layer.bias, bias_const)
    return layer


class Agent(nn.Module):
    def __init__(self, obs_dim, n_actions):
        super().__init__()
        self.critic = nn.Sequential(layer_init(nn.Linear(obs_dim, 32)), nn.Tanh(), layer_init(nn.Linear(32, 1), std=1.0))
        self.actor = nn.Sequential(layer_init(nn.Linear(obs_dim, 32)), nn.Tanh(),
                                   layer_init(nn.Linear(32, n_actions), std=0.01))

    def get_value(self, x):
        return self.critic(x)

    def get_action_and_value(self, x, action=None):
        probs = Categorical(logits=self.actor(x))
        if action is None:
            action = probs.sample()
        return action, probs.log_prob(action), probs.entropy(), self.critic(x)


torch.manual_seed(0)
num_envs, num_steps, obs_dim, n_actions = 4, 8, 4, 3
gamma, gae_lambda, clip_coef, ent_coef, vf_coef = 0.99, 0.95, 0.2, 0.01, 0.5
agent = Agent(obs_dim, n_actions)
optimizer = torch.optim.Adam(agent.parameters(), lr=2.5e-4, eps=1e-5)
obs = torch.zeros((num_steps, num_envs, obs_dim))
actions = torch.zeros((num_steps, num_envs))
logprobs = torch.zeros((num_steps, num_envs))
rewards = torch.zeros((num_steps, num_envs))
dones = torch.zeros((num_steps, num_envs))
values = torch.zeros((num_steps, num_envs))
next_obs, next_done = torch.randn(num_envs, obs_dim), torch.zeros(num_envs)

for iteration in range(2):
    for step in range(num_steps):
        obs[step] = next_obs
        dones[step] = next_done
        with torch.no_grad():
            action, logprob, _, value = agent.get_action_and_value(next_obs)
            values[step] = value.flatten()
        actions[step] = action
        logprobs[step] = logprob
        rewards[step] = (action == 1).float() + 0.1 * torch.randn(num_envs)
        next_obs, next_done = torch.randn(num_envs, obs_dim), (torch.rand(num_envs) < 0.1).float()

    with torch.no_grad():
        next_value = agent.get_value(next_obs).reshape(1, -1)
        advantages = torch.zeros_like(rewards)
        lastgaelam = 0
        for t in reversed(range(num_steps)):
            if t == num_steps - 1:
                nextnonterminal, nextvalues = 1.0 - next_done, next_value
            else:
                nextnonterminal, nextvalues = 1.0 - dones[t + 1], values[t + 1]
            delta = rewards[t] + gamma * nextvalues * nextnonterminal - values[t]
            advantages[t] = lastgaelam = delta + gamma * gae_lambda * nextnonterminal * lastgaelam
        returns = advantages + values

    b_obs, b_logprobs = obs.reshape(-1, obs_dim), logprobs.reshape(-1)
    b_actions, b_advantages = actions.reshape(-1), advantages.reshape(-1)
    b_returns, b_values = returns.reshape(-1), values.reshape(-1)
    b_inds = torch.randperm(num_steps * num_envs)
    for start in range(0, b_inds.numel(), 16):
        mb_inds = b_inds[start:start + 16]
        _, newlogprob, entropy, newvalue = agent.get_action_and_value(b_obs[mb_inds], b_actions[mb_inds].long())
        ratio = (newlogprob - b_logprobs[mb_inds]).exp()
        mb_advantages = b_advantages[mb_inds]
        mb_advantages.sub_(mb_advantages.mean()).div_(mb_advantages.std() + 1e-8)
        pg_loss = torch.max(-mb_advantages * ratio, -mb_advantages * ratio.clamp(1 - clip_coef, 1 + clip_coef)).mean()
        newvalue = newvalue.view(-1)
        v_clipped = b_values[mb_inds] + (newvalue - b_values[mb_inds]).clamp(-clip_coef, clip_coef)
        v_loss = 0.5 * torch.max((newvalue - b_returns[mb_inds]) ** 2, (v_clipped - b_returns[mb_inds]) ** 2).mean()
        loss = pg_loss - ent_coef * entropy.mean() + v_loss * vf_coef
        optimizer.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(agent.parameters(), 0.5)
        optimizer.step()
    print(iteration, round(loss.item(), 5))
