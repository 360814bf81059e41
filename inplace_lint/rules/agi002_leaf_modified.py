"""## What it does
Flags an in-place operation on a leaf tensor that requires grad (``torch.randn(..., requires_grad=True)``,
an ``nn.Parameter``, a model's parameters) or on a view of one, outside ``torch.no_grad()``.

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

Both fixes are **unsafe**, offered for review only. Under ``no_grad`` the update is no longer
differentiated; if it was meant to be part of the computation (a reparametrisation such as
``log_var.exp_()``), the right fix is an out-of-place op (``var = log_var.exp()``). Without
``inplace=True`` the leaf keeps its values, which changes what any later reader of it sees.

## Known problems
Only leaves the analysis can see being created (factories with ``requires_grad=True``,
``nn.Parameter``, ``.requires_grad_()``, ``model.parameters()``) are recognised.
"""

CODE = "AGI002"
NAME = "leaf-modified-inplace"
SUMMARY = "In-place modification of a leaf tensor that requires grad, outside no_grad"
