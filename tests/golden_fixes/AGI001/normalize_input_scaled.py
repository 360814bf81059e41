"""``F.normalize`` saves its input; scaling the input in place afterwards breaks backward."""
import torch
import torch.nn.functional as F


def fn(x):
    h = x + 0.1
    u = F.normalize(h, dim=-1)
    h = h.mul(2.0)  # expect: AGI001
    return u


def run():
    torch.manual_seed(0)
    x = torch.randn(2, 3, requires_grad=True)
    u = fn(x)
    (u * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
    return u


if __name__ == "__main__":
    print(run())
