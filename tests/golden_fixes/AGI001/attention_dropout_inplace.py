"""Attention dropout applied in place to the softmax weights: ``F.dropout(..., inplace=True)`` overwrites
the output softmax saved for backward."""
import torch
import torch.nn.functional as F


def attend(q, k, v):
    weights = F.softmax(q @ k.transpose(-2, -1), dim=-1)
    weights = F.dropout(weights, p=0.5, training=True)  # expect: AGI001
    return weights @ v


def run():
    torch.manual_seed(0)
    q = torch.randn(3, 4, requires_grad=True)
    k = torch.randn(3, 4, requires_grad=True)
    v = torch.randn(3, 4, requires_grad=True)
    out = attend(q, k, v)
    out.sum().backward()
    return out


if __name__ == "__main__":
    print(run())
