"""A sequence loss that keeps a running sum of step features in place and penalises its energy at every
step, accumulating the penalty into ``loss`` without naming it: the square saves the running sum, and
the next step's ``+=`` overwrites it."""
import torch
from torch import nn


def sequence_loss(encoder, steps):
    running = torch.zeros(steps.shape[1], 4)
    loss = 0.0
    for t in range(steps.shape[0]):
        running = running + encoder(steps[t])  # expect: AGI001
        loss = loss + (running ** 2).mean()
    return loss


def run():
    torch.manual_seed(0)
    encoder = nn.Linear(3, 4)
    loss = sequence_loss(encoder, torch.randn(5, 2, 3))
    loss.backward()
    return loss


if __name__ == "__main__":
    print(run())
