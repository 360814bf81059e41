"""A model defined in the same file ends with a sigmoid, which saves its output; the training step then
zeroes low scores in place on that output before the loss. The sigmoid's backward needs the original."""
import torch
from torch import nn


class Scorer(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 1)

    def forward(self, x):
        return torch.sigmoid(self.fc(x))


def run():
    torch.manual_seed(0)
    model = Scorer()
    x = torch.randn(6, 4)
    scores = model(x)
    scores = scores.clone()
    scores[scores < 0.5] = 0.0  # expect: AGI001
    loss = scores.sum()
    loss.backward()
    return scores


if __name__ == "__main__":
    print(run())
