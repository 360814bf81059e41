"""Masking a sigmoid gate in place: ``sigmoid`` saved the gate, ``masked_fill_`` overwrites part of it."""
import torch


def fn(scores, mask):
    gate = torch.sigmoid(scores)
    gate = gate.masked_fill(mask, 0.0)  # expect: AGI001
    return gate


def run():
    torch.manual_seed(0)
    scores = torch.randn(2, 4, requires_grad=True)
    mask = torch.tensor([[True, False, False, True], [False, False, True, False]])
    gate = fn(scores, mask)
    gate.sum().backward()
    return gate


if __name__ == "__main__":
    print(run())
