"""transformers 4.46.3 ``models/esm/modeling_esmfold.py``, ``EsmFoldTriangleMultiplicativeUpdate``:
the memory-saving "inplace" path is unsafe under autograd (it is meant for inference, but nothing stops a
training call):

* ``:648`` ``_combine_projections`` with ``_inplace_chunk_size``: ``a[..., i:i+c, :, :] =
  torch.matmul(a_chunk, b_chunk)`` where ``a_chunk`` is a view of ``a`` that matmul saved. Layout
  decides: for 3-D operands matmul is a bmm that saves the view (raises); for operands with batch dims,
  as ESMFold passes them (``[*, C, N, N]`` after a permute), matmul folds the non-contiguous chunk into
  a copy and saves the copy (runs);
* ``:724``/``:725`` ``compute_projection_helper``: ``p.sigmoid_()`` saves its result, then
  ``p *= linear_p(pair)`` overwrites it;
* ``:880`` ``g = self.linear_g(z)`` saves ``z``; ``z += x`` overwrites it.

The functions below are the relevant lines, verbatim, with the modules they call.
"""
import torch
from torch import nn

from _common import main


def combine_projections(a, b, _inplace_chunk_size=None):
    if _inplace_chunk_size is not None:
        # To be replaced by torch vmap
        for i in range(0, a.shape[-3], _inplace_chunk_size):
            a_chunk = a[..., i : i + _inplace_chunk_size, :, :]
            b_chunk = b[..., i : i + _inplace_chunk_size, :, :]
            a[..., i : i + _inplace_chunk_size, :, :] = torch.matmul(  # culprit
                a_chunk,
                b_chunk,
            )

        p = a
    else:
        p = torch.matmul(a, b)
    return p


class Projection(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.layer_norm_in = nn.LayerNorm(c)
        self.linear_a_g = nn.Linear(c, c)
        self.linear_a_p = nn.Linear(c, c)
        self.linear_g = nn.Linear(c, c)

    def compute_projection_helper(self, pair, mask):
        linear_g = self.linear_a_g
        linear_p = self.linear_a_p
        pair = self.layer_norm_in(pair)
        p = linear_g(pair)
        p.sigmoid_()
        p *= linear_p(pair)  # culprit
        p *= mask
        return p

    def gated_add(self, z, x):
        g = self.linear_g(z)
        g.sigmoid_()
        x *= g
        z += x  # culprit
        return z


def chunked(chunk, shape):
    def go():
        a = torch.randn(*shape, requires_grad=True) * 1.0
        b = torch.randn(*shape, requires_grad=True)
        combine_projections(a, b, chunk).sum().backward()
    return go


def projection():
    module = Projection(4)
    pair = torch.randn(3, 3, 4, requires_grad=True)
    module.compute_projection_helper(pair, torch.ones(3, 3, 1)).sum().backward()


def gated_add():
    module = Projection(4)
    z = torch.randn(3, 4, requires_grad=True) * 1.0
    module.gated_add(z, torch.randn(3, 4)).sum().backward()


if __name__ == "__main__":
    main([
        (":648 _combine_projections, chunks of 3-D operands", chunked(2, (4, 3, 3)), True),
        # with batch dims, matmul folds the non-contiguous chunk into a copy and saves the copy:
        (":648 _combine_projections, chunks of 4-D operands", chunked(2, (2, 4, 3, 3)), False),
        (":648 _combine_projections without chunks", chunked(None, (4, 3, 3)), False),
        (":724 sigmoid_ then p *= ...", projection, True),
        (":880 linear_g(z) then z += x", gated_add, True),
    ])
