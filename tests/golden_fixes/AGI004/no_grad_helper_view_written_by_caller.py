"""A sequence classifier pools its GRU states with small helpers decorated ``@torch.no_grad()`` ("it is
only indexing"), then adds a learned bias to the pooled state in place: the helpers return views, made
under no_grad, of a tensor that requires grad, and torch refuses the write at once."""
import torch
from torch import nn


@torch.no_grad()
def last_state(states):
    return states[:, -1]


class GRUClassifier(nn.Module):
    def __init__(self, dim, hidden, classes):
        super().__init__()
        self.rnn = nn.GRU(dim, hidden, batch_first=True)
        self.bias = nn.Parameter(torch.zeros(hidden))
        self.head = nn.Linear(hidden, classes)

    def _first_state(self, states):
        with torch.no_grad():
            return states.transpose(0, 1)[0]

    def forward(self, x):
        states, _ = self.rnn(x)
        pooled = last_state(states)
        pooled += self.bias  # expect: AGI004
        first = self._first_state(states)
        return self.head(pooled) + self.head(first)


def run():
    torch.manual_seed(0)
    model = GRUClassifier(4, 8, 3)
    logits = model(torch.randn(2, 5, 4))
    logits.sum().backward()
    return logits


if __name__ == "__main__":
    print(run())
