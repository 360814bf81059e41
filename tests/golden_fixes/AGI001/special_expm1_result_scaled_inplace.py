"""A rate parameterisation through ``torch.special.expm1`` (an alias of ``torch.expm1``: its backward
reads the result), then scaled in place before the loss."""
import torch
import torch.nn as nn


class RateHead(nn.Module):
    def __init__(self, features):
        super().__init__()
        self.proj = nn.Linear(features, 1)

    def forward(self, x):
        rate = torch.special.expm1(self.proj(x).clamp(max=5.0))
        rate = rate * 0.1  # expect: AGI001
        return rate


def run():
    torch.manual_seed(0)
    head = RateHead(4)
    rate = head(torch.randn(6, 4))
    rate.mean().backward()
    return rate


if __name__ == "__main__":
    print(run().shape)
