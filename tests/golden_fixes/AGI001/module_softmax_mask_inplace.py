"""A classifier head that zeroes forbidden classes after ``nn.Softmax`` with ``probs *= mask``: softmax
saved its output, the in-place multiply overwrites it."""
import torch
from torch import nn


class MaskedHead(nn.Module):
    def __init__(self, dim, classes):
        super().__init__()
        self.proj = nn.Linear(dim, classes)
        self.softmax = nn.Softmax(dim=-1)

    def forward(self, x, allowed):
        probs = self.softmax(self.proj(x))
        probs = probs * allowed  # expect: AGI001
        return probs


def run():
    torch.manual_seed(0)
    head = MaskedHead(4, 3)
    allowed = torch.tensor([[1.0, 0.0, 1.0], [1.0, 1.0, 0.0]])
    probs = head(torch.randn(2, 4), allowed)
    loss = -(probs + 1e-6).log().mean()
    loss.backward()
    return probs


if __name__ == "__main__":
    print(run())
