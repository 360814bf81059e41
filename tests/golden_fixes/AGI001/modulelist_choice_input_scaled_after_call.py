"""A projection picked from a ModuleList by a condition (two heads, one per task), then its input scaled
in place: whichever head ran saved ``h`` for its weight's gradient."""
import torch
from torch import nn


class TwoHeads(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.encoder = nn.Linear(dim, dim)
        self.heads = nn.ModuleList([nn.Linear(dim, 2), nn.Linear(dim, 3)])

    def forward(self, x, task):
        h = self.encoder(x)
        head = self.heads[0] if task == 0 else self.heads[1]
        logits = head(h)
        h = h.mul(0.5)  # expect: AGI001
        return logits + h.mean()  # the scaled features as an auxiliary term


def run():
    torch.manual_seed(0)
    model = TwoHeads(4)
    logits = model(torch.randn(2, 4), task=1)
    logits.sum().backward()
    return logits


if __name__ == "__main__":
    print(run())
