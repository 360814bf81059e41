"""A span-extraction head reads the hidden state at a pointer position per example (starting at each
example's first token), then advances the pointers in place to read the next token. Indexing with a tensor keeps that index tensor for backward
(to send the gradient back to the right rows), so advancing it in place makes backward raise."""
import torch
from torch import nn


class SpanReader(nn.Module):
    def __init__(self, dim, steps=3):
        super().__init__()
        self.encoder = nn.Linear(dim, dim)
        self.score = nn.Linear(dim, 1)
        self.steps = steps

    def forward(self, x):
        hidden = self.encoder(x)
        rows = torch.arange(x.size(0))
        positions = torch.zeros(x.size(0), dtype=torch.long)
        total = 0
        for _ in range(self.steps):
            token = hidden[rows, positions]
            total = total + self.score(token).sum()
            positions = positions + 1  # expect: AGI001
        return total


def run():
    torch.manual_seed(0)
    reader = SpanReader(6)
    x = torch.randn(2, 8, 6)
    total = reader(x)
    total.backward()
    return total


if __name__ == "__main__":
    print(run())
