# source: stable-baselines3 style ActorCriticPolicy (MlpExtractor, DiagGaussianDistribution with state-independent log_std)
# A2C update for a continuous-action policy on a toy random environment.
import torch
import torch.nn as nn
from torch.distributions import Normal

LOG_STD_MIN, LOG_STD_MAX = -5.0, 2.0


class MlpExtractor(nn.Module):
    def __init__(self, obs_dim, net_arch=(32, 32), activation_fn=nn.Tanh):
        super().__init__()
        pi, vf, last = [], [], obs_dim
        for width in net_arch:
            pi += [nn.Linear(last, width), activation_fn()]
            vf += [nn.Linear(last, width), activation_fn()]
            last = width
        self.policy_net, self.value_net = nn.Sequential(*pi), nn.Sequential(*vf)
        self.latent_dim = last

    def forward(self, obs):
        return self.policy_net(obs), self.value_net(obs)


class ActorCriticPolicy(nn.Module):
    def __init__(self, obs_dim, act_dim, log_std_init=0.0):
        super().__init__()
        self.mlp_extractor = MlpExtractor(obs_dim)
        self.action_net = nn.Linear(self.mlp_extractor.latent_dim, act_dim)
        self.value_net = nn.Linear(self.mlp_extractor.latent_dim, 1)
        self.log_std = nn.Parameter(torch.ones(act_dim) * log_std_init)

    def _get_action_dist_from_latent(self, latent_pi):
        mean_actions = self.action_net(latent_pi)
        log_std = self.log_std.clamp_(LOG_STD_MIN, LOG_STD_MAX)  # culprit
        return Normal(mean_actions, log_std.exp().expand_as(mean_actions))

    def forward(self, obs):
        latent_pi, latent_vf = self.mlp_extractor(obs)
        dist = self._get_action_dist_from_latent(latent_pi)
        return dist, self.value_net(latent_vf).flatten()

    def evaluate_actions(self, obs, actions):
        dist, values = self(obs)
        return values, dist.log_prob(actions).sum(-1), dist.entropy().sum(-1)


class ToyEnv:
    def __init__(self, n_envs, obs_dim):
        self.n_envs, self.obs_dim = n_envs, obs_dim

    def reset(self):
        return torch.randn(self.n_envs, self.obs_dim)

    def step(self, actions):
        reward = -(actions ** 2).sum(-1)
        done = torch.rand(self.n_envs) < 0.1
        return torch.randn(self.n_envs, self.obs_dim), reward, done


def compute_returns(rewards, dones, last_values, gamma=0.99):
    returns = torch.zeros_like(rewards)
    running = last_values
    for t in reversed(range(rewards.size(0))):
        running = rewards[t] + gamma * running * (~dones[t]).float()
        returns[t] = running
    return returns


torch.manual_seed(0)
env, n_steps = ToyEnv(4, 6), 5
policy = ActorCriticPolicy(6, 2)
optimizer = torch.optim.RMSprop(policy.parameters(), lr=7e-4, alpha=0.99, eps=1e-5)
obs = env.reset()
for update in range(2):
    obs_buf, act_buf, rew_buf, done_buf = [], [], [], []
    for _ in range(n_steps):
        with torch.no_grad():
            dist, _ = policy(obs)
            actions = dist.sample()
        next_obs, reward, done = env.step(actions)
        obs_buf.append(obs); act_buf.append(actions); rew_buf.append(reward); done_buf.append(done)
        obs = next_obs
    with torch.no_grad():
        _, last_values = policy(obs)
    returns = compute_returns(torch.stack(rew_buf), torch.stack(done_buf), last_values)
    values, log_prob, entropy = policy.evaluate_actions(torch.cat(obs_buf), torch.cat(act_buf))
    advantages = returns.flatten() - values.detach()
    loss = -(advantages * log_prob).mean() + 0.5 * (returns.flatten() - values).pow(2).mean() - 0.01 * entropy.mean()
    optimizer.zero_grad()
    loss.backward()
    nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
    optimizer.step()
    print(update, loss.item())
