"""A standardising helper that divides in place: ``xc ** 2`` saved ``xc``, and ``xc /= ...`` overwrites it."""
import torch


def standardize(x, eps=1e-5):
    xc = x - x.mean(dim=0)
    var = (xc ** 2).mean(dim=0)
    xc = xc / torch.sqrt(var + eps)  # expect: AGI001
    return xc


def run():
    torch.manual_seed(0)
    x = torch.randn(5, 2, requires_grad=True)
    z = standardize(x)
    (z * torch.arange(10.0).view(5, 2)).sum().backward()
    return z


if __name__ == "__main__":
    print(run())
