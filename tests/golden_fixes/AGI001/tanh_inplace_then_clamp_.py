"""``tanh_`` keeps its output for backward; ``clamp_`` on the same tensor right after overwrites it."""
import torch


def fn(x):
    h = 2.0 * x
    h.tanh_()
    h = h.clamp(-0.5, 0.5)  # expect: AGI001
    return h


def run():
    torch.manual_seed(0)
    x = torch.randn(6, requires_grad=True)
    h = fn(x)
    h.sum().backward()
    return h


if __name__ == "__main__":
    print(run())
