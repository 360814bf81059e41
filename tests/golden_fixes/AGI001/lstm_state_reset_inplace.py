"""A stateful LSTM tagger that resets its carried state in place after each chunk: ``self.lstm(x, (h, c))``
saved ``h`` and ``c`` for backward, and ``self.h.zero_()`` bumps the very tensor it saved."""
import torch
from torch import nn


class StatefulTagger(nn.Module):
    def __init__(self, inp, hidden, tags):
        super().__init__()
        self.lstm = nn.LSTM(inp, hidden)
        self.head = nn.Linear(hidden, tags)

    def forward(self, x, h, c):
        out, _ = self.lstm(x, (h, c))
        h = h.clone().zero_()  # expect: AGI001
        return self.head(out)


def run():
    torch.manual_seed(0)
    tagger = StatefulTagger(3, 4, 2)
    h = torch.randn(1, 2, 4, requires_grad=True)
    c = torch.randn(1, 2, 4)
    scores = tagger(torch.randn(5, 2, 3), h * 1.0, c)
    scores.sum().backward()
    return scores


if __name__ == "__main__":
    print(run())
