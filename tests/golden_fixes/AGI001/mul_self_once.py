"""``h *= h`` once is already a hazard: ``mul_`` saves its multiplier (``h`` itself) before writing ``h``,
so the multiplier is one version stale when backward needs it."""
import torch


def fn(x):
    h = x + 1
    h = h * h  # expect: AGI001
    return h


def run():
    torch.manual_seed(0)
    x = torch.randn(4, requires_grad=True)
    out = fn(x)
    out.sum().backward()
    return out


if __name__ == "__main__":
    print(run())
