"""Every call passes ``reduce='max'``: the helper's max branch runs, and ``scatter_reduce_`` with
``amax`` saves its result, which the caller then raises to a power in place."""
import torch
from torch import Tensor


def scatter(src: Tensor, index: Tensor, size: int, reduce: str = "sum") -> Tensor:
    if reduce == "sum" or reduce == "add":
        return src.new_zeros(size).scatter_add_(0, index, src)
    return src.new_zeros(size).scatter_reduce_(0, index, src, reduce="amax", include_self=False)


def degree_norm(weight: Tensor, index: Tensor, size: int) -> Tensor:
    degree = scatter(weight, index, size, reduce="max")
    return degree.pow(-0.5)  # expect: AGI001


def run():
    torch.manual_seed(0)
    weight = (torch.rand(6) + 0.5).requires_grad_()
    index = torch.tensor([0, 1, 1, 2, 2, 2])
    out = degree_norm(weight, index, 3)
    out.sum().backward()
    return out


if __name__ == "__main__":
    print(run())
