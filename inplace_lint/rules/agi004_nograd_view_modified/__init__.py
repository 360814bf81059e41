"""## What it does
Flags an in-place operation, with grad mode on, on a view that was made under ``torch.no_grad()`` (or
``torch.inference_mode()``) of a tensor that requires grad, or on a view of such a view: slicing and
indexing (``y[0]``, ``w[:, :k]``) and view ops (``view``, ``t``, ``transpose``, ``reshape`` when it
views, ...). ``.detach()`` is not such a view. A view made under no_grad of a tensor that does *not*
require grad (an input, a buffer) is refused too, when what the write puts into it requires grad
(``patches[b] = patches[b] * keep + self.mask_token``).

## Why is this bad?
Autograd records nothing about a view made without grad, so it cannot rebase the view's history onto the
tensor it shares memory with when the view is written in place. torch refuses at once, at the in-place
line::

    RuntimeError: A view was created in no_grad mode and is being modified inplace with grad mode
    enabled. Given that this use case is ambiguous and error-prone, it is forbidden.

(For a view of such a view: ``Output 0 of Slice is a view of a view which was created in no_grad mode
and is being modified inplace with grad mode enabled``.) It typically bites when a slice of a weight or
of an activation is taken under ``no_grad`` to inspect or initialise it, and written after the block.

## Example
```python
import torch
from torch import nn

embed = nn.Embedding(10, 4, padding_idx=0)
with torch.no_grad():
    pad = embed.weight[0]
pad.zero_()  # RuntimeError: A view was created in no_grad mode and is being modified inplace ...
```

## Use instead
```python
import torch
from torch import nn

embed = nn.Embedding(10, 4, padding_idx=0)
with torch.no_grad():
    pad = embed.weight[0]
    pad.zero_()  # the write is an update autograd should not record
```

## Fix safety
For a view of a tensor that requires no grad, written with one that does, no fix is offered: under
``no_grad`` the write would drop the gradient of what it writes, which such code wants; make the view
outside ``no_grad`` or clone it first. Otherwise the fix wraps the in-place statement in
``with torch.no_grad():`` (spelled as the file imports torch),
which is what the code most often meant: the view already left autograd. It is **unsafe**: the write then
is not recorded, so where the shared tensor takes part in a computation whose gradient is taken, that
gradient no longer reflects the write. Making the view outside ``no_grad`` (recorded) or cloning it
(the shared tensor keeps its values) are the alternatives, chosen by what the write was for. No fix is
offered when the view is read again after the write: torch refuses that read with grad on too ("A view
was created in no_grad mode and its base or another view of its base has been modified inplace"), so
wrapping the write alone would not make the code run.

## Known problems
A view reaches its writer through plain names, lists of views, a helper that returns a view of its
argument or of a parameter of a module it is given (``@torch.no_grad() def last(h): return h[:, -1]``,
``return model.embed.weight[-n:]`` under ``no_grad``), alone or in a tuple (``return patches, keep``), and
a method that returns a view of one of ``self``'s tensors, or a tuple of them. A view indexed by a value
the helper cannot see is a number (``self.codebook.weight[i]``) is not followed. Unpacking or iterating a
tensor under ``no_grad`` (``a, b = t``) also makes such views; those are not tracked.
"""

from inplace_lint.model.events import NogradViewWrite
from inplace_lint.rules.examples import Invalid, Valid

CODE = "AGI004"
NAME = "nograd-view-modified-inplace"
SUMMARY = "In-place modification, with grad on, of a view made under no_grad of a tensor that requires grad"
EVENT = NogradViewWrite
SUPERSEDES = ("AGI001",)  # torch raises at the write itself: no backward is reached
# what torch raises at the write: "A view was created in no_grad mode and is being modified inplace with
# grad mode enabled", "Output 0 of Slice is a view of a view which was created in no_grad mode ...", and
# the inference_mode variant
TORCH_ERROR = r"created in (?:no_grad|inference) mode and is being modified inplace"

VALID = (
    # a view made with grad on, and one written under no_grad where it was made
    Valid("import torch\n"
          "x = torch.randn(4, requires_grad=True)\n"
          "y = x * 2\n"
          "v = y[:2]\n"
          "v.zero_()\n"
          "with torch.no_grad():\n"
          "    w = y[2:]\n"
          "    w.zero_()\n"),
)
INVALID = (
    # written under no_grad too: unsafe (a gradient through y no longer sees the write)
    Invalid("import torch\n"
            "x = torch.randn(4, requires_grad=True)\n"
            "y = x * 2\n"
            "with torch.no_grad():\n"
            "    v = y[:2]\n"
            "v.zero_()\n", line=6,
            fixed="import torch\n"
                  "x = torch.randn(4, requires_grad=True)\n"
                  "y = x * 2\n"
                  "with torch.no_grad():\n"
                  "    v = y[:2]\n"
                  "with torch.no_grad():\n"
                  "    v.zero_()\n"),
    # read again afterwards: torch refuses that read too, so no fix
    Invalid("import torch\n"
            "x = torch.randn(4, requires_grad=True)\n"
            "y = x * 2\n"
            "with torch.no_grad():\n"
            "    v = y[:2]\n"
            "v.zero_()\n"
            "print(v)\n", line=6),
    # a no_grad view of a buffer filled with a tensor that requires grad: no fix (no_grad would drop it)
    Invalid("import torch\n"
            "buf = torch.zeros(4)\n"
            "x = torch.randn(2, requires_grad=True)\n"
            "with torch.no_grad():\n"
            "    row = buf[:2]\n"
            "row.copy_(x)\n", line=6),
)
