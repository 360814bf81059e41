# probe: cross_entropy saves the target tensor; rewriting ignored labels with a masked setitem before backward makes it stale
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def masked_ce(logits, labels):
    return F.cross_entropy(logits, labels, ignore_index=-100)


def main():
    head = nn.Linear(4, 3)
    x = torch.randn(5, 4)
    labels = torch.tensor([0, 2, -100, 1, -100])
    loss = masked_ce(head(x), labels)
    labels[labels == -100] = 0  # culprit
    loss.backward()
    print("loss", loss.item())


if __name__ == "__main__":
    main()
