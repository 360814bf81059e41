# source: discuss.pytorch.org thread "Modifying a module's output in a forward hook causes 'modified by an inplace operation'" (activation clipping / sparsification hooks on nn.Tanh)
# the forward hook clamps the Tanh output in place, but TanhBackward0 saved that output for the backward pass
import torch
import torch.nn as nn

torch.manual_seed(0)


class ActivationClipper:
    """Registers forward hooks that clip activations and records their stats."""

    def __init__(self, limit=0.5):
        self.limit = limit
        self.stats = {}
        self.handles = []

    def attach(self, model):
        for name, module in model.named_modules():
            if isinstance(module, nn.Tanh):
                self.handles.append(module.register_forward_hook(self._make_hook(name)))

    def _make_hook(self, name):
        def hook(module, inputs, output):
            self.stats[name] = output.detach().abs().mean().item()
            output.clamp_(-self.limit, self.limit)  # culprit
        return hook

    def remove(self):
        for h in self.handles:
            h.remove()


model = nn.Sequential(
    nn.Linear(6, 12), nn.Tanh(),
    nn.Linear(12, 12), nn.Tanh(),
    nn.Linear(12, 2),
)
clipper = ActivationClipper(limit=0.5)
clipper.attach(model)

opt = torch.optim.SGD(model.parameters(), lr=0.1)
x, y = torch.randn(8, 6), torch.randint(0, 2, (8,))
for step in range(2):
    opt.zero_grad()
    loss = nn.functional.cross_entropy(model(x), y)
    loss.backward()
    opt.step()
    print(step, loss.item(), clipper.stats)
clipper.remove()
