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
Wrapping the statement in ``with torch.no_grad():`` keeps the update but stops autograd from recording
it, which is what an optimizer step means; if the update was meant to be differentiated, it changes
behaviour. The fix is therefore **unsafe**, offered for review only.

## Known problems
Only leaves the analysis can see being created (factories with ``requires_grad=True``,
``nn.Parameter``, ``.requires_grad_()``, ``model.parameters()``) are recognised.
"""

CODE = "AGI002"
NAME = "leaf-modified-inplace"
SUMMARY = "In-place modification of a leaf tensor that requires grad, outside no_grad"
