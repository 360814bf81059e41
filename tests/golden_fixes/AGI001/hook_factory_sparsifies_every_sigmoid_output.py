"""Activation sparsification by hooks a factory method makes (``self._make_hook(name)`` returns a closure),
put on every ``nn.Sigmoid`` of a model. The hook zeroes small gate values in place and records how many
it zeroed, but sigmoid saved its output for its backward, so the training step's backward raises."""
import torch
from torch import nn


class GateSparsifier:
    def __init__(self, threshold=0.2):
        self.threshold = threshold
        self.zeroed = {}
        self.handles = []

    def attach(self, model):
        for name, module in model.named_modules():
            if isinstance(module, nn.Sigmoid):
                self.handles.append(module.register_forward_hook(self._make_hook(name)))

    def _make_hook(self, name):
        def hook(module, inputs, output):
            output = output.clone()
            small = output < self.threshold
            self.zeroed[name] = int(small.sum())
            output.masked_fill_(small, 0.0)  # expect: AGI001
            return output
        return hook


def run():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(6, 12), nn.Sigmoid(), nn.Linear(12, 2))
    sparsifier = GateSparsifier()
    sparsifier.attach(model)
    x, y = torch.randn(8, 6), torch.randint(0, 2, (8,))
    logits = model(x)
    nn.functional.cross_entropy(logits, y).backward()
    return logits


if __name__ == "__main__":
    print(run())
