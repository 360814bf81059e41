# source: Taylor-expansion channel pruning (Molchanov et al. 2017) re-implementations that score |a * dL/da| from a tensor hook
# Accumulates Taylor importance scores with forward hooks + register_hook; the grad hook multiplies the stored activation in place.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class TaylorScorer:
    def __init__(self, model):
        self.scores = {}
        for name, module in model.named_modules():
            if isinstance(module, nn.ReLU):
                module.register_forward_hook(self._make_fwd_hook(name))

    def _make_fwd_hook(self, name):
        def fwd_hook(module, inputs, output):
            output.register_hook(lambda grad: self._score(name, output, grad))
        return fwd_hook

    def _score(self, name, act, grad):
        act.mul_(grad)  # culprit
        s = act.abs().mean(0)
        self.scores[name] = self.scores.get(name, 0) + s


model = nn.Sequential(nn.Linear(12, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 4))
scorer = TaylorScorer(model)
opt = torch.optim.SGD(model.parameters(), lr=0.01)

for step in range(3):
    x, y = torch.randn(16, 12), torch.randint(0, 4, (16,))
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
for name, s in scorer.scores.items():
    print(name, s.argsort()[:4].tolist())
