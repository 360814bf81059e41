# Source: https://github.com/EleutherAI/mp_nerf/pull/6 (EleutherAI/mp_nerf PR #6 "Replace inplace division": in-place division causes an error during gradient computation)
# Unit kind: cross-function
# A unit-vector helper divides its argument in place by its own norm (norm saves its
# input); the frame builder calls it on freshly computed bond vectors.
import torch

torch.manual_seed(0)


def to_unit(v):
    v /= v.norm(dim=-1, keepdim=True)  # culprit
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
