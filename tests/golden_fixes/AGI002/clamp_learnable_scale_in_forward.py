"""Clamping a learnable temperature in ``forward`` in place (CLIP-style logit scale) without ``no_grad``:
the parameter is a leaf that requires grad, so ``clamp_`` raises at once."""
import math

import torch
from torch import nn


class Contrastive(nn.Module):
    def __init__(self):
        super().__init__()
        self.logit_scale = nn.Parameter(torch.tensor(math.log(1 / 0.07)))

    def forward(self, a, b):
        with torch.no_grad():
            self.logit_scale.clamp_(max=math.log(100.0))  # expect: AGI002
        return self.logit_scale.exp() * a @ b.t()


def run():
    torch.manual_seed(0)
    model = Contrastive()
    a = nn.functional.normalize(torch.randn(3, 4), dim=-1)
    b = nn.functional.normalize(torch.randn(3, 4), dim=-1)
    logits = model(a, b)
    loss = nn.functional.cross_entropy(logits, torch.arange(3))
    loss.backward()
    return logits


if __name__ == "__main__":
    print(run())
