"""A max-norm constrained layer written as a subclass of ``nn.Linear`` that renormalises its own weight
in place at the top of ``forward``: the inherited ``self.weight`` is a leaf that requires grad, and the
write is outside ``no_grad``."""
import torch
from torch import nn


class MaxNormLinear(nn.Linear):
    def __init__(self, in_features, out_features, max_norm=1.0):
        super().__init__(in_features, out_features)
        self.max_norm = max_norm

    def forward(self, x):
        norms = self.weight.norm(dim=1, keepdim=True).clamp(min=self.max_norm)
        with torch.no_grad():
            self.weight /= norms / self.max_norm  # expect: AGI002
        return super().forward(x)


def run():
    torch.manual_seed(0)
    layer = MaxNormLinear(4, 3)
    out = layer(torch.randn(2, 4))
    out.sum().backward()
    return out


if __name__ == "__main__":
    print(run())
