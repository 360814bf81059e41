"""A multi-line ``F.relu(..., inplace=True)`` on a sigmoid output: the finding belongs on the first line of
the call. ``sigmoid`` saved its result; the in-place relu overwrites it."""
import torch
import torch.nn.functional as F


def fn(x):
    y = torch.sigmoid(x - 0.5)
    z = F.relu(  # expect: AGI001
        y,
    )
    return z


def run():
    torch.manual_seed(0)
    x = torch.randn(4, requires_grad=True)
    z = fn(x)
    z.sum().backward()
    return z


if __name__ == "__main__":
    print(run())
