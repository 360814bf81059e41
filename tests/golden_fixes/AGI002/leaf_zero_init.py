"""Initialising a freshly created leaf in place: ``torch.empty(..., requires_grad=True)`` then ``zero_()``
outside ``no_grad`` raises at once (``torch.zeros(..., requires_grad=True)`` or a no_grad block would not)."""
import torch


def run():
    torch.manual_seed(0)
    bias = torch.empty(3, requires_grad=True)
    with torch.no_grad():
        bias.zero_()  # expect: AGI002
    x = torch.randn(2, 3)
    out = x + bias
    out.sum().backward()
    return out


if __name__ == "__main__":
    print(run())
