"""``.detach()`` returns a tensor that shares storage *and* the version counter: ``z += 1`` therefore
changes the result that ``exp`` saved, and backward raises (unlike ``.data``)."""
import torch


def fn(x):
    y = torch.exp(x)
    z = y.detach()
    z = z + 1.0  # expect: AGI001
    return y


def run():
    torch.manual_seed(0)
    x = torch.randn(3, requires_grad=True)
    y = fn(x)
    y.sum().backward()
    return y


if __name__ == "__main__":
    print(run())
