# Source: https://github.com/EleutherAI/mp_nerf/pull/6 (EleutherAI/mp_nerf PR #6 "Replace inplace division": in-place division causes an error during gradient computation)
# Unit kind: cross-function
# The length helper's vector norm saves its input; the unit-vector helper then divides
# that same input in place by the length; the frame builder calls it on bond vectors.
import torch

torch.manual_seed(0)


def lengths(v):
    return torch.linalg.vector_norm(v, dim=-1, keepdim=True)


def to_unit(v):
    v /= lengths(v)  # culprit
    return v


def axis_frame(a, b, c):
    v1 = to_unit(c - b)
    v2 = to_unit(b - a)
    n = to_unit(torch.cross(v1, v2, dim=-1))
    return torch.stack([v1, n, torch.cross(n, v1, dim=-1)], dim=-2)


coords = torch.randn(3, 4, 3, requires_grad=True)
frames = axis_frame(coords[0], coords[1], coords[2])
frames.sum().backward()
print("done")
