"""``torch.no_grad()`` only stops recording: the in-place ``mul_`` inside it still bumps the version of the
``h`` that ``log`` saved outside the block, so backward raises."""
import torch


def fn(x):
    h = x.abs() + 1.0
    y = h.log()
    with torch.no_grad():
        h = h.mul(2.0)  # expect: AGI001
    return y


def run():
    torch.manual_seed(0)
    x = torch.randn(3, requires_grad=True)
    y = fn(x)
    y.sum().backward()
    return y


if __name__ == "__main__":
    print(run())
