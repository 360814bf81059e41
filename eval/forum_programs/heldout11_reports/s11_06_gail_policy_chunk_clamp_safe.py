# source: https://github.com/toshikwa/gail-airl-ppo.pytorch/issues/13
# Fixed Gaussian policy: out-of-place clamp() on the chunked log_stds.
import math
import torch
import torch.nn as nn

torch.manual_seed(0)


def reparameterize(means, log_stds):
    noises = torch.randn_like(means)
    us = means + noises * log_stds.exp()
    actions = torch.tanh(us)
    log_pis = (-0.5 * noises.pow(2) - log_stds).sum(dim=-1, keepdim=True) \
        - 0.5 * math.log(2 * math.pi) * log_stds.size(-1)
    log_pis = log_pis - torch.log(1 - actions.pow(2) + 1e-6).sum(dim=-1, keepdim=True)
    return actions, log_pis


class StateDependentPolicy(nn.Module):
    def __init__(self, state_dim, action_dim, hidden=16):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(state_dim, hidden), nn.Tanh(),
            nn.Linear(hidden, 2 * action_dim),
        )

    def forward(self, states):
        return torch.tanh(self.net(states).chunk(2, dim=-1)[0])

    def sample(self, states):
        means, log_stds = self.net(states).chunk(2, dim=-1)
        return reparameterize(means, log_stds.clamp(-20, 2))


actor = StateDependentPolicy(3, 2)
opt = torch.optim.Adam(actor.parameters(), lr=3e-4)
states = torch.randn(4, 3)
actions, log_pis = actor.sample(states)
loss = (log_pis - actions.sum(-1, keepdim=True)).mean()
opt.zero_grad()
loss.backward()
opt.step()
print("done")
