# source: hand-rolled Lookahead optimizer wrapper (Zhang et al. 2019) from forum/gist code, slow-weight sync without no_grad
# Lookahead around SGD: every k steps slow weights move toward fast weights and are copied back into the parameters.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Lookahead:
    def __init__(self, base_optimizer, k=3, alpha=0.5):
        self.base = base_optimizer
        self.k, self.alpha, self.counter = k, alpha, 0
        self.slow = [[p.detach().clone() for p in g["params"]] for g in self.base.param_groups]

    def zero_grad(self):
        self.base.zero_grad()

    def step(self):
        self.base.step()
        self.counter += 1
        if self.counter % self.k == 0:
            self._sync()

    def _sync(self):
        for group, slow_group in zip(self.base.param_groups, self.slow):
            for fast, slow in zip(group["params"], slow_group):
                slow.add_(fast.detach() - slow, alpha=self.alpha)
                fast.copy_(slow)  # culprit


model = nn.Sequential(nn.Linear(6, 32), nn.Tanh(), nn.Linear(32, 1))
opt = Lookahead(torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9), k=3)
w_true = torch.randn(6, 1)
for step in range(6):
    x = torch.randn(32, 6)
    loss = F.mse_loss(model(x), x @ w_true)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, loss.item())
