"""## What it does
Flags an in-place operation on a leaf tensor that requires grad (``torch.randn(..., requires_grad=True)``,
an ``nn.Parameter``, a model's parameters) or on a view of one, outside ``torch.no_grad()``. The leaves
may come through a list (``[p for p in model.parameters() if p.requires_grad]``, handed to a helper),
through ``opt.param_groups[i]["params"]`` (also ``self.param_groups`` in a ``torch.optim.Optimizer``
subclass whose ``step`` lacks ``@torch.no_grad()``, and ``self.params`` in a hand-written optimizer without
a base class, one with ``step`` and ``zero_grad`` methods), or be written by a fused
``torch._foreach_*_(leaves, ...)``; ``self.centers[labels] -= ...`` is an ``index_put_`` on the parameter.
A custom ``autograd.Function`` whose forward writes its input in place (``ctx.mark_dirty``) writes the leaf
passed to ``apply``.

## Why is this bad?
Autograd accumulates gradients into leaves; writing a leaf in place while gradients are recorded would
lose the value the gradient refers to. torch refuses at once, at the in-place line::

    RuntimeError: a leaf Variable that requires grad is being used in an in-place operation.

## Example
```python
w = torch.randn(3, requires_grad=True)
loss = (w * x).sum()
loss.backward()
w -= 0.1 * w.grad  # an update recorded by autograd
```

## Use instead
```python
with torch.no_grad():
    w -= 0.1 * w.grad  # the optimizer-step pattern: not recorded
```

## Fix safety
The fix wraps the statement in ``with torch.no_grad():`` (spelled as the file imports torch:
``th.no_grad()``, ``no_grad()``), indenting it one level. It keeps the update but stops autograd from
recording it, which is what an optimizer step, an initialisation or a weight clip means. It is offered
only for a statement on a line of its own in a file that imports torch at module level.

For an activation applied to a leaf (``F.relu(x, inplace=True)``, ``nn.ReLU(inplace=True)`` first in an
``nn.Sequential`` fed a leaf), the fix removes ``inplace=True`` instead: under ``no_grad`` the activation
would lose its gradient, and wrapping a module's construction would not even stop the error.

Wrapping an **update** in ``no_grad`` -- an augmented assignment (``w -= lr * w.grad``), a subscript
write (``w[0] = 0``), or an update method (``add_``, ``sub_``, ``mul_``, ``div_``, ``copy_``, ``zero_``,
``fill_``, ``clamp_``, ``masked_fill_``, ``lerp_``, the random initialisers, and their fused
``torch._foreach_*_`` forms) -- is **safe**: a leaf
cannot be written while autograd records, so the only meaning such a statement can have is an update
autograd does not see, which is what ``no_grad`` gives; the leaf is updated in place exactly as written.
For any other in-place op on the leaf (a math op such as ``log_var.exp_()``) the fix is **unsafe**: the
op may have been meant as part of the computation, where the right fix is out of place
(``var = log_var.exp()``). Removing ``inplace=True`` from an activation is **unsafe** too: the leaf
then keeps its values, which changes what any later reader of it sees.

## Known problems
Only leaves the analysis can see being created (factories with ``requires_grad=True``,
``nn.Parameter``, ``.requires_grad_()``, ``model.parameters()``) are recognised.
"""

from inplace_lint.model.events import LeafWrite
from inplace_lint.rules.examples import Invalid, Valid

CODE = "AGI002"
NAME = "leaf-modified-inplace"
SUMMARY = "In-place modification of a leaf tensor that requires grad, outside no_grad"
EVENT = LeafWrite
SUPERSEDES = ()
# what torch raises at the write: "a leaf Variable ... is being used" (direct), "a view of a leaf Variable
# ... is being used", "a leaf Variable ... has been used" (autograd.Function.mark_dirty on a leaf)
TORCH_ERROR = r"leaf Variable that requires grad (?:is being|has been) used in an in-place operation"

VALID = (
    # an update under no_grad, and one through .data: autograd records neither
    Valid("import torch\n"
          "w = torch.zeros(3, requires_grad=True)\n"
          "with torch.no_grad():\n"
          "    w.mul_(2)\n"
          "w.data.add_(1)\n"),
    # a tensor that does not require grad
    Valid("import torch\n"
          "v = torch.zeros(3)\n"
          "v += 1\n"),
)
INVALID = (
    # an update: wrapped in no_grad, safe
    Invalid("import torch\n"
            "w = torch.zeros(3, requires_grad=True)\n"
            "w += 1\n", line=3,
            fixed="import torch\n"
                  "w = torch.zeros(3, requires_grad=True)\n"
                  "with torch.no_grad():\n"
                  "    w += 1\n"),
    # a math op on the leaf: wrapped too, but unsafe (it may have been meant as part of the computation)
    Invalid("import torch\n"
            "log_var = torch.zeros(2, requires_grad=True)\n"
            "log_var.exp_()\n", line=3,
            fixed="import torch\n"
                  "log_var = torch.zeros(2, requires_grad=True)\n"
                  "with torch.no_grad():\n"
                  "    log_var.exp_()\n"),
    # an activation applied in place to a parameter: inplace=True removed
    Invalid("import torch\n"
            "import torch.nn.functional as F\n"
            "p = torch.nn.Parameter(torch.randn(3))\n"
            "y = F.relu(p, inplace=True)\n", line=4,
            fixed="import torch\n"
                  "import torch.nn.functional as F\n"
                  "p = torch.nn.Parameter(torch.randn(3))\n"
                  "y = F.relu(p)\n"),
)
