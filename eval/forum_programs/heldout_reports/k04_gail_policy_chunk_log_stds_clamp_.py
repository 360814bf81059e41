# source: https://github.com/toshikwa/gail-airl-ppo.pytorch/issues/13 (log_stds from .chunk(2) clamped in place in evaluate_log_pi)
import math
import torch
from torch import nn


def build_mlp(input_dim, output_dim, hidden_units=(16, 16), hidden_activation=nn.Tanh()):
    layers = []
    units = input_dim
    for next_units in hidden_units:
        layers.append(nn.Linear(units, next_units))
        layers.append(hidden_activation)
        units = next_units
    layers.append(nn.Linear(units, output_dim))
    return nn.Sequential(*layers)


def calculate_log_pi(log_stds, noises, actions):
    gaussian_log_probs = (-0.5 * noises.pow(2) - log_stds).sum(
        dim=-1, keepdim=True) - 0.5 * math.log(2 * math.pi) * log_stds.size(-1)
    return gaussian_log_probs - torch.log(1 - actions.pow(2) + 1e-6).sum(dim=-1, keepdim=True)


def atanh(x):
    return 0.5 * (torch.log(1 + x + 1e-6) - torch.log(1 - x + 1e-6))


def evaluate_lop_pi(means, log_stds, actions):
    noises = (atanh(actions) - means) / (log_stds.exp() + 1e-8)
    return calculate_log_pi(log_stds, noises, actions)


class StateDependentPolicy(nn.Module):
    def __init__(self, state_shape, action_shape):
        super().__init__()
        self.net = build_mlp(state_shape[0], 2 * action_shape[0])

    def forward(self, states):
        return torch.tanh(self.net(states).chunk(2, dim=-1)[0])

    def evaluate_log_pi(self, states, actions):
        means, log_stds = self.net(states).chunk(2, dim=-1)
        log_stds.clamp_(-20, 2)  # culprit
        return evaluate_lop_pi(means, log_stds, actions)


torch.manual_seed(0)
actor = StateDependentPolicy((4,), (2,))
states = torch.randn(6, 4)
actions = torch.rand(6, 2) * 1.8 - 0.9
log_pis = actor.evaluate_log_pi(states, actions)
loss = -log_pis.mean()
loss.backward()
print(loss.item())
