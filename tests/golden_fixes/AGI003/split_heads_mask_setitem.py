"""Masking the first position of one head after ``split``: a subscript write into a view of a split
output is still an in-place write torch refuses."""
import torch


def split_heads(scores, heads):
    parts = scores.split(scores.shape[-1] // heads, dim=-1)
    first = parts[0]
    first = first.clone()
    first[:, 0] = 0.0  # expect: AGI003
    return torch.cat(parts, dim=-1)


def run():
    torch.manual_seed(0)
    scores = torch.randn(3, 8, requires_grad=True) * 2.0
    out = split_heads(scores, 2)
    out.sum().backward()
    return out
