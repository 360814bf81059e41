import torch


class NoisyPolicy:
    def __init__(self, actor, sigma=0.1):
        self.actor, self.sigma = actor, sigma

    def act(self, obs):
        a = self.actor(obs)
        a.add_(self.sigma * torch.randn_like(a))  # culprit
        return a
