# Source: https://github.com/EleutherAI/mp_nerf/pull/6 (EleutherAI/mp_nerf PR #6 "Replace inplace division"); the guard mirrors idiap/fast-transformers PR #10, where the maintainer keeps the fast in-place path only when no operand has a gradient function
# Unit kind: cross-function
# Look-alike of hazard/008: the unit-vector helper divides in place only when its input
# does not require grad, and out of place otherwise.
import torch

torch.manual_seed(0)


def to_unit(v):
    n = v.norm(dim=-1, keepdim=True)
    if v.requires_grad:
        return v / n
    v /= n
    return v


def axis_frame(a, b, c):
    v1 = to_unit(c - b)
    v2 = to_unit(b - a)
    n = to_unit(torch.cross(v1, v2, dim=-1))
    return torch.stack([v1, n, torch.cross(n, v1, dim=-1)], dim=-2)


coords = torch.randn(3, 4, 3, requires_grad=True)
frames = axis_frame(coords[0], coords[1], coords[2])
frames.sum().backward()
reference = axis_frame(*torch.randn(3, 4, 3))
print(reference.shape)
