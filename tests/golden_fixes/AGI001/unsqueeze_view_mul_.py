"""``unsqueeze`` returns a view: scaling it in place bumps the version of ``h``, which ``cos`` saved."""
import torch


def fn(x):
    h = x + 0.0
    y = h.cos()
    h = h.clone()
    h.unsqueeze(0).mul_(2.0)  # expect: AGI001
    return y


def run():
    torch.manual_seed(0)
    x = torch.randn(3, requires_grad=True)
    y = fn(x)
    y.sum().backward()
    return y


if __name__ == "__main__":
    print(run())
