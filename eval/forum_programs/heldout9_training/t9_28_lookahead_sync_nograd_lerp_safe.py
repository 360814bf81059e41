# source: Lookahead optimizer (Zhang et al. 2019) written the way lonePatient/lookahead_pytorch and timm do it, under no_grad
# Lookahead around Adam: every k steps slow weights lerp toward fast weights and are copied back, inside a no_grad method.
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

    @torch.no_grad()
    def _sync(self):
        for group, slow_group in zip(self.base.param_groups, self.slow):
            for fast, slow in zip(group["params"], slow_group):
                slow.lerp_(fast, self.alpha)
                fast.copy_(slow)


model = nn.Sequential(nn.Linear(6, 32), nn.Tanh(), nn.Linear(32, 1))
opt = Lookahead(torch.optim.Adam(model.parameters(), lr=1e-2), k=3)
w_true = torch.randn(6, 1)
for step in range(6):
    x = torch.randn(32, 6)
    loss = F.mse_loss(model(x), x @ w_true)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, loss.item())
