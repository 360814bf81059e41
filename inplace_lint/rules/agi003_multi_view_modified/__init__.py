"""## What it does
Flags an in-place operation on an output of ``split``, ``chunk`` or ``unbind`` (method or function
form), or on a view of one, when the split tensor may require grad and autograd is recording.

## Why is this bad?
These functions return several views of one tensor. Autograd cannot rebase the history of one of them
when it is written in place, so torch refuses at once, at the in-place line::

    RuntimeError: Output 0 of Split is a view and is being modified inplace. This view is the
    output of a function that returns multiple views. Such functions do not allow the output views to
    be modified inplace. You should replace the inplace operation by an out-of-place one.

torch names the op's autograd node and the output written: ``Output 2 of Unbind``, ``Output 1 of
SplitWithSizes`` (``split`` by a list of sizes), ``Output 0 of Split`` (``split`` by an int, ``chunk``);
for a view of an output, the view's own node (``Output 0 of View``). The message quotes it as far as the
code tells, and names the other outputs of the same call: views of one tensor, they share its version
counter. The classic case is scaling the query of a fused projection in place.

Writing a tensor that requires grad into such an output of a tensor that does *not* (filling a
preallocated buffer through ``buf.unbind(0)`` or ``buf.chunk(n)``) is refused too, with the same
explanation after ``A view was created in no_grad mode and is being modified inplace with grad mode
enabled.``; that is flagged as well.

## Example
```python
q, k, v = self.qkv(x).chunk(3, dim=-1)
q *= self.scale
```

## Use instead
```python
q, k, v = self.qkv(x).chunk(3, dim=-1)
q = q * self.scale
```

## Fix safety
A filled buffer gets no fix: write through the base tensor (``outputs[t] = h``, which autograd records)
or build the result out of place (``torch.stack``). Otherwise the fix rewrites the write out of place (``q = q * self.scale``, ``h = h.add(1)``; a subscript write
gets ``h = h.clone()`` first), as for AGI001. It is always **unsafe**: through the view, the in-place
write also changed the tensor that was split, and where the same code runs without grad (evaluation
under ``torch.no_grad()``, where torch allows the write) that tensor now keeps its old values.

## Known problems
Which functions return such views comes from torch (``"multi_view"`` in the knowledge table, probed):
on torch 2.13 ``split``, ``chunk`` and ``unbind``; ``tensor_split``, ``hsplit`` and the ``unsafe_*``
forms allow the write. Iterating over a tensor (``for row in x``) and unpacking one (``h, c = state``)
unbind it too: those count when the value is known to be a tensor (not the unknown result of a call,
which may be a tuple, nor a parameter unpacked, which is taken for a tuple); ``x.new_zeros(...)`` and the
other ``new_*`` factories make one, so padding a batch by copying tensors that require grad into its rows
(``for img, row in zip(images, batch): row.copy_(img)``) is refused at once. A view created under
``no_grad`` and written with grad on raises a different error: that is AGI004.
"""

from inplace_lint.model.events import MultiViewWrite
from inplace_lint.rules.examples import Invalid, Valid

CODE = "AGI003"
NAME = "multi-view-output-modified-inplace"
SUMMARY = "In-place modification of an output of split/chunk/unbind that requires grad"
EVENT = MultiViewWrite
SUPERSEDES = ("AGI001",)  # torch raises at the write itself: no backward is reached
# what torch raises at the write: "Output 0 of Split is a view and is being modified inplace. This view is
# the output of a function that returns multiple views. ..." (the node and output vary: report.py)
TORCH_ERROR = r"is the output of a function that returns multiple views"

VALID = (
    # split outputs read, not written; written under no_grad; tensor_split's outputs may be written
    Valid("import torch\n"
          "x = torch.randn(6, requires_grad=True)\n"
          "a, b = (x * 3).split(3)\n"
          "a2 = a * 2\n"
          "with torch.no_grad():\n"
          "    c, d = x.chunk(2)\n"
          "    c.zero_()\n"
          "h = (x * 2).tensor_split(2)[0]\n"
          "h.add_(1)\n"),
)
INVALID = (
    # rewritten out of place, unsafe: the split tensor no longer sees the write
    Invalid("import torch\n"
            "x = torch.randn(6, requires_grad=True)\n"
            "q, k, v = (x * 2).chunk(3)\n"
            "q *= 2\n", line=4,
            fixed="import torch\n"
                  "x = torch.randn(6, requires_grad=True)\n"
                  "q, k, v = (x * 2).chunk(3)\n"
                  "q = q * 2\n"),
    # a buffer of no grad filled through unbind() with tensors that require grad: no fix
    Invalid("import torch\n"
            "x = torch.randn(6, requires_grad=True)\n"
            "buf = torch.zeros(2, 3)\n"
            "for row, src in zip(buf.unbind(0), (x[:3], x[3:])):\n"
            "    row.copy_(src)\n", line=5),
)
