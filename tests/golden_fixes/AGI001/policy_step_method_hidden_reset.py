"""A recurrent policy wraps one environment step in a method, ``act``, which returns the action logits and
the new hidden state. The training loop zeroes the hidden state of finished episodes in place -- but the
policy head inside ``act`` saved that hidden state to compute its weight gradient, so backward over the
rollout raises."""
import torch
from torch import nn


class RecurrentPolicy(nn.Module):
    def __init__(self, obs_dim=5, hidden=16, actions=3):
        super().__init__()
        self.cell = nn.GRUCell(obs_dim, hidden)
        self.head = nn.Linear(hidden, actions)

    def act(self, obs, h):
        h = self.cell(obs, h)
        return self.head(h), h


def run():
    torch.manual_seed(0)
    envs, steps = 4, 5
    policy = RecurrentPolicy()
    observations = torch.randn(steps, envs, 5)
    dones = torch.rand(steps, envs) < 0.4
    h = torch.zeros(envs, 16)
    log_probs = []
    for t in range(steps):
        logits, h = policy.act(observations[t], h)
        log_probs.append(torch.log_softmax(logits, -1)[:, 0])
        h = h.clone()
        h[dones[t]] = 0.0  # expect: AGI001
    loss = -torch.stack(log_probs).mean()
    loss.backward()
    return loss


if __name__ == "__main__":
    print(run())
