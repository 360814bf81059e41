"""A forward pass that takes a slice of its hidden activations under ``no_grad`` to measure it, then
rescales that slice in place after the block: the slice is a view of a tensor that requires grad."""
import torch
from torch import nn


class ClippedHead(nn.Module):
    def __init__(self, dim, keep=3):
        super().__init__()
        self.fc = nn.Linear(dim, dim)
        self.keep = keep

    def forward(self, x):
        h = self.fc(x)
        with torch.no_grad():
            head = h[:, : self.keep]
            peak = head.abs().max()
        if peak > 0:
            with torch.no_grad():
                head.div_(peak)  # expect: AGI004
        return h.sum(dim=-1)


def run():
    torch.manual_seed(0)
    model = ClippedHead(6)
    out = model(torch.randn(4, 6))
    out.mean().backward()
    return out


if __name__ == "__main__":
    print(run())
