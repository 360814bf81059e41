# Policy head with a nested helper that applies the temperature in place to the tanh-squashed mean
import torch
import torch.nn as nn


class Actor(nn.Module):
    def __init__(self, d, a):
        super().__init__()
        self.mu = nn.Linear(d, a)
        self.temperature = 0.7

    def forward(self, obs):
        def scale(t):
            t.mul_(self.temperature)  # culprit
            return t

        mean = torch.tanh(self.mu(obs))
        return scale(mean)


torch.manual_seed(0)
actor = Actor(4, 2)
obs = torch.randn(5, 4)
action = actor(obs)
(action - torch.zeros(5, 2)).pow(2).sum().backward()
print(actor.mu.weight.grad.norm().item())
