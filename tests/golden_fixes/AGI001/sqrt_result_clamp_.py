"""``sqrt`` saves its result (d sqrt(u) = 1 / (2 sqrt(u))); clamping that result in place breaks backward."""
import torch


def fn(x):
    y = torch.sqrt(x.abs() + 1.0)
    y = y.clamp(max=1.2)  # expect: AGI001
    return y


def run():
    torch.manual_seed(0)
    x = torch.randn(5, requires_grad=True)
    y = fn(x)
    y.sum().backward()
    return y


if __name__ == "__main__":
    print(run())
