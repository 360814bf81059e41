import torch


def apply_rotary_(x, cos, sin):
    x1, x2 = x[..., ::2], x[..., 1::2]
    rot = torch.stack([-x2, x1], dim=-1).flatten(-2)
    return x * cos + rot * sin
