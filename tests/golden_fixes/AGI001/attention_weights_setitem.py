"""Forbidding attention to the first key by writing ``weights[..., 0] = 0`` after the softmax: an
in-place write of the saved softmax output."""
import torch


def attend(q, k, v):
    weights = (q @ k.transpose(-2, -1)).softmax(dim=-1)
    weights = weights.clone()
    weights[..., 0] = 0.0  # expect: AGI001
    return weights @ v


def run():
    torch.manual_seed(0)
    q = torch.randn(2, 3, 4, requires_grad=True)
    k = torch.randn(2, 3, 4, requires_grad=True)
    v = torch.randn(2, 3, 4, requires_grad=True)
    out = attend(q, k, v)
    out.pow(2).sum().backward()
    return out


if __name__ == "__main__":
    print(run())
