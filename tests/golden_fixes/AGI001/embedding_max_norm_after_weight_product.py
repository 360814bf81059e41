"""``nn.Embedding(..., max_norm=1.0)`` renormalises the rows it looks up in place, on every call. Here the
weight table takes part in a product first (the matmul saves it for the other operand's gradient), then
the lookup rewrites it, and the backward raises. torch's own documentation of ``nn.Embedding`` gives the
fix: hand the product a copy (``embedding.weight.clone()``)."""
import torch
import torch.nn as nn


def run():
    torch.manual_seed(0)
    embedding = nn.Embedding(3, 5, max_norm=1.0)
    W = torch.randn(7, 5, requires_grad=True)
    idx = torch.tensor([1, 2])
    a = embedding.weight.clone() @ W.t()
    b = embedding(idx) @ W.t()  # expect: AGI001
    out = a.unsqueeze(0) + b.unsqueeze(1)
    loss = out.sigmoid().prod()
    loss.backward()
    return out


if __name__ == "__main__":
    print(run())
