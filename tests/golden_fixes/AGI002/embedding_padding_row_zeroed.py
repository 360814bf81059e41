"""Zeroing an embedding's padding row after each step without ``no_grad``: ``emb.weight[0]`` is a view of
a leaf that requires grad, so ``zero_()`` raises at once."""
import torch
from torch import nn


def run():
    torch.manual_seed(0)
    emb = nn.Embedding(5, 3)
    head = nn.Linear(3, 1)
    opt = torch.optim.SGD(list(emb.parameters()) + list(head.parameters()), lr=0.1)
    tokens = torch.tensor([[0, 2, 4], [1, 3, 0]])
    opt.zero_grad()
    out = head(emb(tokens)).mean(dim=1)
    out.sum().backward()
    opt.step()
    with torch.no_grad():
        emb.weight[0].zero_()  # expect: AGI002
    return out


if __name__ == "__main__":
    print(run())
