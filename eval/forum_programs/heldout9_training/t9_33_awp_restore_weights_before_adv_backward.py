# source: adversarial weight perturbation (AWP, Wu et al. 2020) class as copied around Kaggle notebooks, with restore() moved up
# AWP training step: perturb weights along the gradient, compute the adversarial loss, restore weights, then backward it.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class AWP:
    def __init__(self, model, adv_lr=0.1, adv_eps=1e-2):
        self.model, self.adv_lr, self.adv_eps = model, adv_lr, adv_eps
        self.backup = {}

    @torch.no_grad()
    def perturb(self):
        for name, p in self.model.named_parameters():
            if p.grad is None or "weight" not in name:
                continue
            delta = self.adv_lr * p.grad / (p.grad.norm() + 1e-12) * (p.norm() + 1e-12)
            delta.clamp_(-self.adv_eps, self.adv_eps)
            p.add_(delta)
            self.backup[name] = delta

    @torch.no_grad()
    def restore(self):
        for name, p in self.model.named_parameters():
            if name in self.backup:
                p.sub_(self.backup[name])  # culprit
        self.backup = {}


model = nn.Sequential(nn.Linear(12, 48), nn.GELU(), nn.Linear(48, 48), nn.GELU(), nn.Linear(48, 5))
awp = AWP(model)
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
for step in range(3):
    x, y = torch.randn(16, 12), torch.randint(0, 5, (16,))
    opt.zero_grad()
    loss = F.cross_entropy(model(x), y)
    loss.backward()
    awp.perturb()
    adv_loss = F.cross_entropy(model(x), y)
    awp.restore()
    adv_loss.backward()
    opt.step()
    print(step, loss.item(), adv_loss.item())
