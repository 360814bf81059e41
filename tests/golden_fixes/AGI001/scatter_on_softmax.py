"""Zeroing the target class of a softmax in place with ``scatter_``: softmax saves its output, so the
write breaks backward."""
import torch


def fn(logits, target):
    p = torch.softmax(logits, dim=1)
    p = p.scatter(1, target.unsqueeze(1), 0.0)  # expect: AGI001
    return p


def run():
    torch.manual_seed(0)
    logits = torch.randn(3, 4, requires_grad=True)
    target = torch.tensor([0, 3, 1])
    p = fn(logits, target)
    p.pow(2).sum().backward()
    return p


if __name__ == "__main__":
    print(run())
