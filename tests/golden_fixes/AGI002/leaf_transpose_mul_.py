"""``w.t()`` is a view of a leaf that requires grad: scaling it in place raises at once."""
import torch


def run():
    torch.manual_seed(0)
    w = torch.randn(3, 2, requires_grad=True)
    with torch.no_grad():
        w.t().mul_(0.5)  # expect: AGI002
    out = torch.randn(4, 3) @ w
    out.sum().backward()
    return out


if __name__ == "__main__":
    print(run())
