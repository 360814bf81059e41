"""The actor-critic update with the optimizer step moved before the backward: ``policy.act`` saved the
policy's weights (its linear layers keep them for the input's gradient), ``opt.step()`` rewrites them
in place with the previous update's gradients, and the backward then finds them changed (the first
update still passes: it has no gradients to apply yet)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Policy(nn.Module):
    def __init__(self, obs=6, actions=3):
        super().__init__()
        self.body = nn.Linear(obs, 16)
        self.pi = nn.Linear(16, actions)
        self.v = nn.Linear(16, 1)

    def act(self, obs):
        h = torch.tanh(self.body(obs))
        return self.pi(h), self.v(h)


def run():
    torch.manual_seed(0)
    policy = Policy()
    opt = torch.optim.SGD(policy.parameters(), lr=0.1)
    for _ in range(2):
        obs = torch.randn(4, 6)
        logits, value = policy.act(obs)
        action = torch.distributions.Categorical(logits=logits).sample()
        advantage = torch.randn(4)
        log_prob = F.log_softmax(logits, -1).gather(1, action[:, None]).squeeze(1)
        loss = -(log_prob * advantage).mean() + (value.squeeze(1) - advantage).pow(2).mean()
        opt.step()  # expect: AGI001
        loss.backward()
    return loss


if __name__ == "__main__":
    print(run())
