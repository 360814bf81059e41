"""Writing one element of a leaf that requires grad: ``x[0] = 0`` is an in-place write through a view of
the leaf, and torch raises "a view of a leaf Variable that requires grad ..." at once."""
import torch


def run():
    torch.manual_seed(0)
    x = torch.randn(4, requires_grad=True)
    with torch.no_grad():
        x[0] = 0.0  # expect: AGI002
    y = x.sin()
    y.sum().backward()
    return y


if __name__ == "__main__":
    print(run())
