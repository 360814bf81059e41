"""Updating ``model.parameters()`` in a loop outside ``no_grad``: each ``p`` is a leaf that requires grad,
so ``p -= lr * p.grad`` raises at once."""
import torch
from torch import nn


def run():
    torch.manual_seed(0)
    model = nn.Linear(3, 1)
    x, y = torch.randn(6, 3), torch.randn(6, 1)
    pred = model(x)
    loss = nn.functional.mse_loss(pred, y)
    loss.backward()
    for p in model.parameters():
        with torch.no_grad():
            p -= 0.05 * p.grad  # expect: AGI002
    return pred


if __name__ == "__main__":
    print(run())
