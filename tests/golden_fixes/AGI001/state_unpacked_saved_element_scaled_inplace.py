"""A recurrent step that unpacks its ``(h, c)`` state and projects ``h`` -- a Linear layer saves its
input for the weight's gradient -- then damps ``h`` in place before the next step: the write moves the
version of the very tensor that projection saved."""
import torch
import torch.nn as nn


class DampedCell(nn.Module):
    def __init__(self, size):
        super().__init__()
        self.hh = nn.Linear(size, size)

    def forward(self, state):
        h, c = state
        out = torch.tanh(self.hh(h) + c)
        h = h.mul(0.9)  # expect: AGI001
        return out, h + out


def run():
    torch.manual_seed(0)
    cell = DampedCell(4)
    stem = nn.Linear(4, 4)
    start = stem(torch.randn(2, 4))
    out, _ = cell((start, torch.zeros(2, 4)))
    out.sum().backward()
    return out


if __name__ == "__main__":
    print(run())
