# source: sb3-contrib RecurrentPPO style LSTM policy with per-environment hidden-state storage
# Recurrent actor-critic: collects a rollout with stored LSTM states, then replays it for a policy-gradient update.
import torch
import torch.nn as nn
from torch.distributions import Categorical


class RecurrentActorCritic(nn.Module):
    def __init__(self, obs_dim, n_actions, hidden_size=32, n_layers=1, max_envs=8):
        super().__init__()
        self.hidden_size, self.n_layers = hidden_size, n_layers
        self.encoder = nn.Sequential(nn.Linear(obs_dim, hidden_size), nn.ReLU())
        self.lstm = nn.LSTM(hidden_size, hidden_size, n_layers)
        self.pi = nn.Linear(hidden_size, n_actions)
        self.vf = nn.Linear(hidden_size, 1)
        # (h, c) storage for up to max_envs environments
        self.register_buffer("_states", torch.zeros(2, n_layers, max_envs, hidden_size), persistent=False)
        self.active_states = None

    @torch.no_grad()
    def reset_states(self, n_envs):
        self._states.zero_()
        self.active_states = self._states[:, :, :n_envs]

    def forward(self, obs, episode_starts):
        not_start = (1.0 - episode_starts).view(1, 1, -1, 1)
        h0, c0 = (self.active_states * not_start).unbind(0)
        features = self.encoder(obs).unsqueeze(0)
        out, (h, c) = self.lstm(features, (h0, c0))
        self.active_states.copy_(torch.stack((h, c)))  # culprit
        latent = out.squeeze(0)
        return Categorical(logits=self.pi(latent)), self.vf(latent).squeeze(-1)


def collect_rollout(policy, n_envs, n_steps, obs_dim):
    obs_buf, act_buf, rew_buf, start_buf = [], [], [], []
    obs, starts = torch.randn(n_envs, obs_dim), torch.ones(n_envs)
    with torch.no_grad():
        for _ in range(n_steps):
            dist, _ = policy(obs, starts)
            action = dist.sample()
            obs_buf.append(obs); act_buf.append(action); start_buf.append(starts)
            rew_buf.append((action == 0).float())
            obs, starts = torch.randn(n_envs, obs_dim), (torch.rand(n_envs) < 0.2).float()
    return torch.stack(obs_buf), torch.stack(act_buf), torch.stack(rew_buf), torch.stack(start_buf)


def discounted_returns(rewards, gamma=0.95):
    returns = torch.zeros_like(rewards)
    running = torch.zeros(rewards.size(1))
    for t in reversed(range(rewards.size(0))):
        running = rewards[t] + gamma * running
        returns[t] = running
    return returns


torch.manual_seed(0)
n_envs, n_steps, obs_dim = 4, 6, 5
policy = RecurrentActorCritic(obs_dim, 3)
optimizer = torch.optim.Adam(policy.parameters(), lr=3e-4)
for it in range(2):
    policy.reset_states(n_envs)
    obs, actions, rewards, starts = collect_rollout(policy, n_envs, n_steps, obs_dim)
    returns = discounted_returns(rewards)
    policy.reset_states(n_envs)
    logps, vals, ents = [], [], []
    for t in range(n_steps):
        dist, value = policy(obs[t], starts[t])
        logps.append(dist.log_prob(actions[t])); vals.append(value); ents.append(dist.entropy())
    logps, vals = torch.stack(logps), torch.stack(vals)
    adv = (returns - vals).detach()
    loss = -(logps * adv).mean() + 0.5 * (returns - vals).pow(2).mean() - 0.01 * torch.stack(ents).mean()
    optimizer.zero_grad()
    loss.backward()
    nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
    optimizer.step()
    print(it, loss.item())
