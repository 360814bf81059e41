"""``out=x`` is an in-place write. ``x * w`` saved ``x`` (because ``w`` requires grad) even though ``x``
itself does not require grad, so overwriting ``x`` through ``out=`` breaks ``w``'s gradient."""
import torch


def run():
    torch.manual_seed(0)
    w = torch.randn(3, requires_grad=True)
    x = torch.randn(3)
    y = x * w
    x = torch.mul(x, 2.0)  # expect: AGI001
    y.sum().backward()
    return y


if __name__ == "__main__":
    print(run())
