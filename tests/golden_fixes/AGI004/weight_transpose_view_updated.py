"""A manual weight tweak: the transposed weight is taken under ``no_grad`` (``w.t()`` is a view), and the
update is applied after the block, where grad mode is on again."""
import torch


def run():
    torch.manual_seed(0)
    weight = torch.nn.Parameter(torch.randn(3, 5))
    x = torch.randn(2, 5)
    with torch.no_grad():
        weight_t = weight.t()
        scale = weight_t.norm()
    with torch.no_grad():
        weight_t.mul_(1.0 / scale)  # expect: AGI004
    out = x @ weight.t()
    out.sum().backward()
    return out


if __name__ == "__main__":
    print(run())
