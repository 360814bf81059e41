# source: https://github.com/toshikwa/gail-airl-ppo.pytorch/issues/13 ("Questions about in-place operations")
# SAC-style actor update with a state-dependent-variance Gaussian policy and twin Q critics on random states.
import math
import torch
import torch.nn as nn

torch.manual_seed(0)


def build_mlp(input_dim, output_dim, hidden_units=(64, 64), hidden_activation=nn.ReLU(inplace=True)):
    layers = []
    units = input_dim
    for next_units in hidden_units:
        layers.append(nn.Linear(units, next_units))
        layers.append(hidden_activation)
        units = next_units
    layers.append(nn.Linear(units, output_dim))
    return nn.Sequential(*layers)


def calculate_log_pi(log_stds, noises, actions):
    gaussian_log_probs = (-0.5 * noises.pow(2) - log_stds).sum(dim=-1, keepdim=True) \
        - 0.5 * math.log(2 * math.pi) * log_stds.size(-1)
    return gaussian_log_probs - torch.log(1 - actions.pow(2) + 1e-6).sum(dim=-1, keepdim=True)


def reparameterize(means, log_stds):
    noises = torch.randn_like(means)
    us = means + noises * log_stds.exp()
    actions = torch.tanh(us)
    return actions, calculate_log_pi(log_stds, noises, actions)


class StateDependentVarianceGaussianPolicy(nn.Module):
    def __init__(self, state_shape, action_shape):
        super().__init__()
        self.net = build_mlp(state_shape[0], 2 * action_shape[0])

    def forward(self, states):
        return torch.tanh(self.net(states).chunk(2, dim=-1)[0])

    def sample(self, states):
        means, log_stds = self.net(states).chunk(2, dim=-1)
        return reparameterize(means, log_stds.clamp_(-20, 2))  # culprit


class TwinnedStateActionFunction(nn.Module):
    def __init__(self, state_shape, action_shape):
        super().__init__()
        self.net1 = build_mlp(state_shape[0] + action_shape[0], 1)
        self.net2 = build_mlp(state_shape[0] + action_shape[0], 1)

    def forward(self, states, actions):
        xs = torch.cat([states, actions], dim=-1)
        return self.net1(xs), self.net2(xs)


state_shape, action_shape = (8,), (2,)
actor = StateDependentVarianceGaussianPolicy(state_shape, action_shape)
critic = TwinnedStateActionFunction(state_shape, action_shape)
optim_actor = torch.optim.Adam(actor.parameters(), lr=3e-4)
alpha = 0.2

for step in range(3):
    states = torch.randn(32, state_shape[0])
    actions, log_pis = actor.sample(states)
    qs1, qs2 = critic(states, actions)
    loss_actor = alpha * log_pis.mean() - torch.min(qs1, qs2).mean()

    optim_actor.zero_grad()
    loss_actor.backward()
    optim_actor.step()
    print(f"step {step}: actor loss {loss_actor.item():.4f}")
