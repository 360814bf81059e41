# intended: safe
# SAM done right: perturb and restore under no_grad, between the two
# forward/backward passes; optimizer step on the restored weights.
import torch
import torch.nn as nn
import torch.nn.functional as F


class SAMTrainer:
    def __init__(self, model, rho=0.05):
        self.model = model
        self.rho = rho
        self.opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)

    @torch.no_grad()
    def _climb(self):
        params = [p for p in self.model.parameters() if p.grad is not None]
        norm = torch.norm(torch.stack([p.grad.norm() for p in params]))
        self.eps = []
        for p in params:
            e = p.grad * (self.rho / (norm + 1e-12))
            p.add_(e)
            self.eps.append((p, e))

    @torch.no_grad()
    def _descend(self):
        for p, e in self.eps:
            p.sub_(e)

    def step(self, x, y):
        loss = F.cross_entropy(self.model(x), y)
        self.opt.zero_grad()
        loss.backward()
        self._climb()
        self.opt.zero_grad()
        F.cross_entropy(self.model(x), y).backward()
        self._descend()
        self.opt.step()
        return loss.item()


torch.manual_seed(0)
trainer = SAMTrainer(nn.Sequential(nn.Linear(5, 10), nn.ReLU(), nn.Linear(10, 3)))
x, y = torch.randn(8, 5), torch.randint(0, 3, (8,))
for it in range(3):
    print(it, trainer.step(x, y))
