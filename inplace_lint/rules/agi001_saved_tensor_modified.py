"""## What it does
Flags an in-place operation (``*=``, ``+=``, ``x.add_()``, ``x[i] = v``, ``F.relu(x, inplace=True)``,
a module built with ``inplace=True``, ``out=x``) on a tensor that an earlier operation saved for the
backward pass, when a later backward can still reach that operation.

## Why is this bad?
Autograd keeps some tensors alive for backward: ``a * b`` saves both inputs, ``torch.exp(x)`` and
``torch.sigmoid(x)`` save their result, ``x + y`` saves none. Every tensor carries a version counter
that each in-place operation bumps (views and ``.detach()`` share it with their base). When backward
reaches the operation that saved the tensor, it finds the version moved and raises::

    RuntimeError: one of the variables needed for gradient computation has been modified by an
    inplace operation: [torch.FloatTensor []], which is output 0 of MulBackward0, is at version 5;
    expected version 4 instead.

The error surfaces at ``backward()``, far from the line that caused it.

## Example
```python
def fn(a):
    b = a ** 2
    for _ in range(5):
        b *= b  # the multiplication saves b, then overwrites it
    return b
```

## Use instead
```python
def fn(a):
    b = a ** 2
    for _ in range(5):
        b = b * b  # a new tensor each time; the saved one is left alone
    return b
```

## Fix safety
Rewriting the operation out of place (``b = b * b``, ``x = x.add(y)``, ``F.relu(x)``, dropping
``inplace=True``, ``y = y.clone()`` before a subscript write) gives the same forward values and makes the
gradient computable. The fix is **safe** when the modified tensor is a local name that nothing else
aliases; it is **unsafe** when the in-place write was also meant to update a tensor seen elsewhere (a view
into a larger tensor, an attribute, a parameter or buffer, a list element, an argument the caller keeps).

## Known problems
The analysis is per function. A tensor saved by an op inside a function it cannot see (an unknown
module's ``forward``) is not known to be saved, so in-place changes of such results are not reported.
"""

CODE = "AGI001"
NAME = "saved-tensor-modified-inplace"
SUMMARY = "In-place modification of a tensor that an earlier op saved for backward"
