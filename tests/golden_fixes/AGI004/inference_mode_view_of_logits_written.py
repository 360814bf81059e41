"""A training step that peeks at the first sample's logits under ``inference_mode`` and then clamps that
row in place once the block is over: torch refuses the write (the inference-mode variant of the error)."""
import torch
from torch import nn


def train_step(model, x, y):
    logits = model(x)
    with torch.inference_mode():
        first = logits[0]
    with torch.no_grad():
        first.clamp_(-5.0, 5.0)  # expect: AGI004
    loss = nn.functional.cross_entropy(logits, y)
    loss.backward()
    return loss


def run():
    torch.manual_seed(0)
    model = nn.Linear(6, 3)
    return train_step(model, torch.randn(4, 6), torch.tensor([0, 1, 2, 1]))


if __name__ == "__main__":
    print(run())
