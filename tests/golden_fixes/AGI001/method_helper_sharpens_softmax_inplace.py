"""A module whose private helper sharpens attention weights in place: ``torch.softmax`` saved its result
for backward, and ``self._sharpen(weights)`` raises it to a power in that very tensor."""
import torch
from torch import nn


class Pooling(nn.Module):
    def __init__(self, dim, temperature=2.0):
        super().__init__()
        self.score = nn.Linear(dim, 1)
        self.temperature = temperature

    def _sharpen(self, weights):
        weights = weights.pow(self.temperature)  # expect: AGI001
        return weights / weights.sum(dim=-1, keepdim=True)

    def forward(self, x):
        weights = torch.softmax(self.score(x).squeeze(-1), dim=-1)
        weights = self._sharpen(weights)
        return (weights.unsqueeze(-1) * x).sum(dim=1)


def run():
    torch.manual_seed(0)
    pooled = Pooling(4)(torch.randn(2, 5, 4))
    pooled.sum().backward()
    return pooled


if __name__ == "__main__":
    print(run())
