# source: https://github.com/toshikwa/gail-airl-ppo.pytorch/issues/13 ("Questions about in-place operations")
# Full SAC update (twin critics, actor, soft target update) for an expert policy on random transitions.
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def build_mlp(input_dim, output_dim, hidden_units=(64, 64), hidden_activation=nn.ReLU(inplace=True)):
    layers, units = [], input_dim
    for next_units in hidden_units:
        layers += [nn.Linear(units, next_units), hidden_activation]
        units = next_units
    layers.append(nn.Linear(units, output_dim))
    return nn.Sequential(*layers)


def reparameterize(means, log_stds):
    noises = torch.randn_like(means)
    us = means + noises * log_stds.exp()
    actions = torch.tanh(us)
    log_pis = (-0.5 * noises.pow(2) - log_stds).sum(-1, keepdim=True) - 0.5 * math.log(2 * math.pi) * means.size(-1)
    log_pis = log_pis - torch.log(1 - actions.pow(2) + 1e-6).sum(-1, keepdim=True)
    return actions, log_pis


class StateDependentVarianceGaussianPolicy(nn.Module):
    def __init__(self, state_dim, action_dim):
        super().__init__()
        self.net = build_mlp(state_dim, 2 * action_dim)

    def sample(self, states):
        means, log_stds = self.net(states).chunk(2, dim=-1)
        return reparameterize(means, log_stds.clamp(-20, 2))


class TwinnedCritic(nn.Module):
    def __init__(self, state_dim, action_dim):
        super().__init__()
        self.net1 = build_mlp(state_dim + action_dim, 1)
        self.net2 = build_mlp(state_dim + action_dim, 1)

    def forward(self, states, actions):
        xs = torch.cat([states, actions], dim=-1)
        return self.net1(xs), self.net2(xs)


def soft_update(target, source, tau):
    for t, s in zip(target.parameters(), source.parameters()):
        t.data.mul_(1.0 - tau)
        t.data.add_(tau * s.data)


S, A = 6, 2
actor, critic, critic_target = StateDependentVarianceGaussianPolicy(S, A), TwinnedCritic(S, A), TwinnedCritic(S, A)
critic_target.load_state_dict(critic.state_dict())
optim_actor = torch.optim.Adam(actor.parameters(), lr=3e-4)
optim_critic = torch.optim.Adam(critic.parameters(), lr=3e-4)
alpha, gamma, tau = 0.2, 0.99, 5e-3

for step in range(4):
    states, next_states = torch.randn(32, S), torch.randn(32, S)
    actions = torch.rand(32, A) * 2 - 1
    rewards, dones = torch.randn(32, 1), (torch.rand(32, 1) < 0.1).float()

    curr_qs1, curr_qs2 = critic(states, actions)
    with torch.no_grad():
        next_actions, log_pis = actor.sample(next_states)
        next_qs = torch.min(*critic_target(next_states, next_actions)) - alpha * log_pis
    target_qs = rewards + (1.0 - dones) * gamma * next_qs
    loss_critic = (curr_qs1 - target_qs).pow_(2).mean() + (curr_qs2 - target_qs).pow_(2).mean()
    optim_critic.zero_grad()
    loss_critic.backward(retain_graph=False)
    optim_critic.step()

    new_actions, log_pis = actor.sample(states)
    loss_actor = alpha * log_pis.mean() - torch.min(*critic(states, new_actions)).mean()
    optim_actor.zero_grad()
    loss_actor.backward(retain_graph=False)
    optim_actor.step()

    soft_update(critic_target, critic, tau)
    print(f"step {step}: critic {loss_critic.item():.4f} actor {loss_actor.item():.4f}")
