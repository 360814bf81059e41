# unnormalised attention weights: adding a bonus for special tokens with index_put_
import torch
import torch.nn as nn


def pool(h, scorer, special_idx, bonus):
    w = scorer(h).squeeze(-1).exp()
    w.index_put_((special_idx,), bonus, accumulate=True)  # culprit
    w = w / w.sum()
    return (w[:, None] * h).sum(0)


def main():
    torch.manual_seed(0)
    enc = nn.Linear(3, 4)
    scorer = nn.Linear(4, 1)
    h = enc(torch.randn(6, 3))
    v = pool(h, scorer, torch.tensor([0, 5]), torch.tensor([0.5, 0.5]))
    v.sum().backward()
    print(scorer.weight.grad)


if __name__ == "__main__":
    main()
