# source: Taylor-expansion channel pruning (Molchanov et al. 2017), hooks modelled on jacobgil/pytorch-pruning's compute_rank
# Accumulates Taylor importance |a * dL/da| from tensor hooks, computing the product out of place and zeroing pruned grads in place.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class TaylorScorer:
    def __init__(self, model, frozen_channels=None):
        self.scores = {}
        self.frozen = frozen_channels or {}
        for name, module in model.named_modules():
            if isinstance(module, nn.ReLU):
                module.register_forward_hook(self._make_fwd_hook(name))

    def _make_fwd_hook(self, name):
        def fwd_hook(module, inputs, output):
            act = output.detach()
            output.register_hook(lambda grad: self._score(name, act, grad))
        return fwd_hook

    def _score(self, name, act, grad):
        s = (act * grad).abs().mean(0)
        self.scores[name] = self.scores.get(name, 0) + s
        if name in self.frozen:
            grad = grad.clone()
            grad[:, self.frozen[name]] = 0.0
            return grad


model = nn.Sequential(nn.Linear(12, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 4))
scorer = TaylorScorer(model, frozen_channels={"3": [0, 5, 7]})
opt = torch.optim.SGD(model.parameters(), lr=0.01)

for step in range(3):
    x, y = torch.randn(16, 12), torch.randint(0, 4, (16,))
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
for name, s in scorer.scores.items():
    print(name, s.argsort()[:4].tolist())
