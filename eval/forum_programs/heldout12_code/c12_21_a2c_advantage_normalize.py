# source: A2C / REINFORCE-with-baseline update (pytorch/examples actor_critic, ikostrikov a2c) with advantage normalisation
# Shared-trunk actor-critic trained on a synthetic rollout with discounted returns and normalised advantages.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical


class ActorCritic(nn.Module):
    def __init__(self, obs_dim, n_actions, hidden=32):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(obs_dim, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh())
        self.pi = nn.Linear(hidden, n_actions)
        self.v = nn.Linear(hidden, 1)

    def forward(self, obs):
        h = self.trunk(obs)
        return Categorical(logits=self.pi(h)), self.v(h).squeeze(-1)


def discounted_returns(rewards, dones, gamma, bootstrap):
    returns = torch.zeros_like(rewards)
    running = bootstrap
    for t in reversed(range(rewards.shape[0])):
        running = rewards[t] + gamma * running * (1.0 - dones[t])
        returns[t] = running
    return returns


def collect_rollout(model, steps, n_envs, obs_dim):
    obs_buf, act_buf, rew_buf, done_buf = [], [], [], []
    obs = torch.randn(n_envs, obs_dim)
    for _ in range(steps):
        with torch.no_grad():
            dist, _ = model(obs)
            action = dist.sample()
        reward = (action == (obs[:, 0] > 0).long()).float()
        done = (torch.rand(n_envs) < 0.1).float()
        obs_buf.append(obs)
        act_buf.append(action)
        rew_buf.append(reward)
        done_buf.append(done)
        obs = torch.randn(n_envs, obs_dim)
    return torch.stack(obs_buf), torch.stack(act_buf), torch.stack(rew_buf), torch.stack(done_buf), obs


def a2c_update(model, opt, rollout, gamma=0.99, value_coef=0.5, entropy_coef=0.01):
    obs, actions, rewards, dones, last_obs = rollout
    with torch.no_grad():
        _, last_value = model(last_obs)
    returns = discounted_returns(rewards, dones, gamma, last_value)
    dist, values = model(obs)
    advantages = returns - values
    advantages -= advantages.mean()
    advantages /= advantages.std() + 1e-8  # culprit
    policy_loss = -(dist.log_prob(actions) * advantages).mean()
    value_loss = F.mse_loss(values, returns)
    loss = policy_loss + value_coef * value_loss - entropy_coef * dist.entropy().mean()
    opt.zero_grad()
    loss.backward()
    nn.utils.clip_grad_norm_(model.parameters(), 0.5)
    opt.step()
    return loss.item()


def main():
    torch.manual_seed(0)
    model = ActorCritic(obs_dim=4, n_actions=2)
    opt = torch.optim.RMSprop(model.parameters(), lr=7e-4, alpha=0.99, eps=1e-5)
    rollout = collect_rollout(model, steps=5, n_envs=4, obs_dim=4)
    print("loss", a2c_update(model, opt, rollout))


if __name__ == "__main__":
    main()
