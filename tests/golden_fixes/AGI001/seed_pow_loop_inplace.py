"""Seed program 1: ``b *= b`` in a loop. ``b.mul_(b)`` saves ``b`` as the multiplier and then overwrites it,
so backward finds the saved ``b`` one version newer ("is at version 5; expected version 4") and raises."""
import torch


def fn(a):
    b = a ** 2
    for _ in range(5):
        b = b * b  # expect: AGI001
    return b


def run():
    torch.manual_seed(0)
    a = torch.tensor(1.5, requires_grad=True)  # the seed used 10.0, which overflows float32 to inf
    out = fn(a)
    out.backward()
    return out


if __name__ == "__main__":
    print(run())
