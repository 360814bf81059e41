"""Clamping logits in place after computing ``F.binary_cross_entropy_with_logits``: the loss saved the
logits, so its backward raises."""
import torch
import torch.nn.functional as F
from torch import nn


def run():
    torch.manual_seed(0)
    model = nn.Linear(3, 1)
    x = torch.randn(6, 3)
    target = torch.tensor([[1.0], [0.0], [1.0], [1.0], [0.0], [0.0]])
    logits = model(x)
    loss = F.binary_cross_entropy_with_logits(logits, target)
    logits = logits.clamp(-0.5, 0.5)  # expect: AGI001
    loss.backward()
    return logits, loss


if __name__ == "__main__":
    print(run())
