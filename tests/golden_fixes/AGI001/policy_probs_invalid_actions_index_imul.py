"""Invalid-action masking done on the probabilities, through a boolean mask: ``probs[invalid] *= 0`` is
``probs[invalid] = probs[invalid] * 0``, an ``index_put_`` on ``probs``, which the softmax saved as its
result. Masking the logits before the softmax (or ``probs.masked_fill(invalid, 0)``) is the fix."""
import torch
from torch import nn


class Policy(nn.Module):
    def __init__(self, obs_dim, n_actions):
        super().__init__()
        self.body = nn.Linear(obs_dim, n_actions)

    def forward(self, obs, invalid):
        probs = torch.softmax(self.body(obs), dim=-1)
        probs = probs.clone()
        probs[invalid] *= 0  # expect: AGI001
        return probs / probs.sum(dim=-1, keepdim=True)


def run():
    torch.manual_seed(0)
    policy = Policy(4, 3)
    obs = torch.randn(2, 4)
    invalid = torch.tensor([[False, True, False], [False, False, True]])
    probs = policy(obs, invalid)
    actions = torch.tensor([0, 1])
    loss = -torch.log(probs[torch.arange(2), actions]).mean()
    loss.backward()
    return probs


if __name__ == "__main__":
    print(run())
