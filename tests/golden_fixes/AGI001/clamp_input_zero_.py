"""``clamp`` saves its input (to know which elements were inside the range); zeroing it breaks backward."""
import torch


def fn(x):
    h = x * 2.0
    y = h.clamp(0.0, 1.0)
    h = h.clone().zero_()  # expect: AGI001
    return y


def run():
    torch.manual_seed(0)
    x = torch.randn(5, requires_grad=True)
    y = fn(x)
    y.sum().backward()
    return y


if __name__ == "__main__":
    print(run())
