"""## What it does
Flags an in-place write (``b *= b``, ``x.add_(y)``, ``x[i] = v``, ``F.relu(x, inplace=True)``, a module
built with ``inplace=True``, ``out=x``, ``optimizer.step()``, ...) to a tensor that an earlier operation
saved for the backward pass, when a later backward can still reach that operation. The section "What the
analysis follows" at the end lists every form and how far across functions it looks.

## Why is this bad?
Autograd keeps some tensors for backward: ``a * b`` saves both inputs, ``torch.exp(x)`` and
``torch.sigmoid(x)`` their result, ``x + y`` nothing. Each in-place operation bumps the tensor's version
counter (views and ``.detach()`` share it), and backward, reaching the op that saved it, raises::

    RuntimeError: one of the variables needed for gradient computation has been modified by an
    inplace operation: [torch.FloatTensor []], which is output 0 of Mul, is at version 5;
    expected version 4 instead.

The error surfaces at ``backward()``, far from the line that caused it.
The finding also says why that op recorded a graph (``because 'self.fc(x)' on line 10, a module's
output, requires grad``; JSON: ``grad_source``, ``grad_source_line``, ``grad_reason``).

## Example
```python
import torch

def fn(a):
    b = a ** 2
    for _ in range(5):
        b *= b  # the multiplication saves b, then overwrites it
    return b

fn(torch.tensor(5.0, requires_grad=True)).backward()  # raises at backward
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
A fix rewrites the write out of place: the forward values stay the same and backward can run, at the
cost of a new tensor where the original reused memory. It is **safe** when the written tensor is a local
name nothing else can see, and **unsafe** when the write also updated a tensor seen elsewhere (an
attribute, a view or alias read again such as ``v = h.view(-1)``, an argument the caller keeps, a
parameter, a global): the out-of-place form no longer updates it. Per form:

- ``b *= v`` -> ``b = b * v``; ``x.add_(y)`` -> ``x = x.add(y)`` (no out-of-place twin: ``x =
  x.clone().zero_()``); ``torch.relu_(x)`` -> ``x = torch.relu(x)``; ``out=x`` -> ``x = torch.mul(a, b)``.
- Inside a larger expression (``z = x.relu_()``) only when ``x`` is not read afterwards, or is rebound too.
- ``F.relu(x, inplace=True)`` loses ``inplace=True``; a module built with it loses it too (safe when the
  module is called once, or every call rebinds its argument, as in ResNet blocks; an ``nn.Sequential``
  element is safe when an earlier element saved the tensor). A module switched later (``m.inplace =
  True``) is handed ``h.clone()``.
- ``laterals[i] += up`` -> ``laterals[i] = laterals[i] + up``; ``y[i] = v`` and writes through a view
  (``h[2:].zero_()``) get ``y = y.clone()`` on the line before (none when the same statement saves the
  tensor, as in ``hs[t + 1] = f(hs[t])``: collect the states in a list and ``torch.stack`` them).
- ``h = Fn.apply(h)`` with a custom Function that writes its first input -> ``h = Fn.apply(h.clone())``.
- A forward hook's write gets ``output = output.clone()`` first and ``return output`` last.
- A method that writes its module's own tensors (``critic.clip_weights(0.01)``) moves to just after the
  next ``loss.backward()`` of its block, when nothing between mentions the module.
- A ``max_norm`` lookup's renormalisation: the op that saved the weight gets ``emb.weight.clone()``, as
  torch's ``nn.Embedding`` documentation advises.
- No fix: ``torch._foreach_*_`` writes, and ``optimizer.step()`` / ``load_state_dict()`` / a helper's
  parameter update between a forward and its backward: move the step after the last backward that needs
  the old parameters (``loss.backward(); aux.backward(); opt.step()``), or run the forward again after it.

Even a safe fix changes one thing: the in-place form keeps the target's dtype, the out-of-place form
follows type promotion (``x.add_(y)`` with float32 ``x`` and float64 ``y`` stays float32; ``x =
x.add(y)`` is float64). Mixed-precision code should check.

## Known problems
The analysis is per file: per function, with summaries of the file's functions and methods. A tensor
saved inside code it cannot see (an unknown module's ``forward``, a forward hook that keeps its output
for a loss, another method through ``self``) is not known to be saved, so writes to it are not reported.
A module the file cannot see is taken to save its positional inputs and its parameters, not its output.
A parameter unpacked (``h, c = state``) is taken to be a tuple of distinct tensors. Which model a loop
over ``model.modules()`` or ``model.apply(fn)`` runs over is not followed; lambdas and
``register_forward_pre_hook`` are not followed.

## What the analysis follows
- Write forms: augmented assignment, in-place methods (``x.add_()``), index writes (``x[mask] *= 0`` is an
  ``index_put_``), ``inplace=True`` on a function, a module, ``functools.partial(nn.ReLU, inplace=True)``
  or a switch after construction (``for m in self.modules(): if isinstance(m, nn.Dropout): m.inplace =
  True``), ``out=x``, ``torch._foreach_add_(tensors, ...)`` on every tensor of its list, a list's or dict's
  slot (``laterals[i - 1] += up``), a custom ``autograd.Function`` that marks an input dirty.
- Writes in a helper: a function, a module method or a plain class's method of the file that writes what
  it is passed (``def forward(self, seqs, mask): seqs *= mask``, ``loss *= self.scale``), also through
  calls that pass it on; the finding is on the helper's line. A helper that returns what it is passed or a
  view of it gives its caller that tensor (``x.float()`` on a default-dtype tensor is ``x``, as is
  ``nn.Identity()(x)``).
- Saves in a helper: a function whose result came from ops that saved its parameters (``def scores(q,
  k): return q @ k.transpose(-1, -2)``) saves what the caller passes, for as long as the caller holds the
  result (``.item()`` or discarding it keeps no save); a module class of the file saves what its
  ``forward`` saves; a function that builds and returns a module gives its callers that module; a
  submodule called through a module a helper is handed (``model.embedding(ids)``) saves what it saves.
- Forward hooks of the file (by name, or returned by a factory) registered on a known module, that edit
  the output in place (``output.mul_(0.5)``): the hook runs after the module's forward, when a sigmoid or
  softmax has saved that output. Followed inside a module class, or where the file runs a backward.
- Parameter updates between a forward and its backward: ``optimizer.step()``, ``load_state_dict``, a
  module's method writing its own parameters (WGAN's ``critic.clip_weights(0.01)``), ``for p in
  model.parameters(): p.mul_(d)``.
- ``nn.Embedding(n, d, max_norm=1.0)`` (or ``F.embedding(..., max_norm=1.0)``) lookups, which renormalise
  the looked-up rows in place: an earlier op that saved the weight (a tied output layer's
  ``h @ emb.weight.t()``, also a previous step of a decoder class) finds it changed. Only a literal number
  or bool counts as given.
- Layer classes held in names or parameters (``act_layer=nn.ReLU``, ``partial(nn.ReLU6, inplace=True)``,
  a table ``ACTS["relu"]``): a parameter is its default unless every call passes one known layer;
  ``inplace=inplace`` defaulting to ``True`` is True when no call passes it; a function choosing its
  return by a string (``_get_activation_fn("relu")``) returns that choice.
- Modules taken out of a list or chosen on a branch are called as the module they are when all agree,
  else as a module the analysis cannot see into; when one is ``nn.Identity()`` the call may return its
  input itself.
"""

from inplace_lint.model.events import StaleSave
from inplace_lint.rules.examples import Invalid, Valid

CODE = "AGI001"
NAME = "saved-tensor-modified-inplace"
SUMMARY = "In-place modification of a tensor that an earlier op saved for backward"
EVENT = StaleSave
SUPERSEDES = ()
# what torch raises at the backward (tests/fixtures/AGI001/ confirm it; the node's name varies by release)
TORCH_ERROR = r"one of the variables needed for gradient computation has been modified by an inplace " \
              r"operation"

VALID = (
    # the write is to a tensor no op saved (x * 2 saves only the scalar's operand), or to a copy
    Valid("import torch\n"
          "x = torch.randn(3, requires_grad=True)\n"
          "y = x * 2\n"
          "y.add_(1)\n"
          "y.sum().backward()\n"
          "z = x.exp()\n"
          "w = z.clone()\n"
          "w.add_(1)\n"
          "(z + w).sum().backward()\n"),
)
INVALID = (
    # sigmoid saves its result: rewritten out of place, safe (nothing else sees y)
    Invalid("import torch\n"
            "x = torch.randn(3, requires_grad=True)\n"
            "y = x.sigmoid()\n"
            "y.mul_(2)\n"
            "y.sum().backward()\n", line=4,
            fixed="import torch\n"
                  "x = torch.randn(3, requires_grad=True)\n"
                  "y = x.sigmoid()\n"
                  "y = y.mul(2)\n"
                  "y.sum().backward()\n"),
    # the augmented assignment saves the tensor it then overwrites
    Invalid("import torch\n"
            "x = torch.randn(3, requires_grad=True)\n"
            "b = x * 1\n"
            "b *= b\n"
            "b.sum().backward()\n", line=4,
            fixed="import torch\n"
                  "x = torch.randn(3, requires_grad=True)\n"
                  "b = x * 1\n"
                  "b = b * b\n"
                  "b.sum().backward()\n"),
    # an optimizer step between two backwards through the same parameters: no fix, the message says why
    Invalid("import torch\n"
            "w = torch.nn.Parameter(torch.randn(3))\n"
            "opt = torch.optim.SGD([w], lr=0.1)\n"
            "loss1 = (w * 3).sum()\n"
            "loss2 = (w * w).sum()\n"
            "loss1.backward(retain_graph=True)\n"
            "opt.step()\n"
            "loss2.backward()\n", line=7),
    # an activation built in place, overwriting what the layer before it saved inside nn.Sequential
    Invalid("import torch\n"
            "from torch import nn\n"
            "model = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.ReLU(inplace=True), nn.Linear(8, 1))\n"
            "model(torch.randn(2, 4)).sum().backward()\n", line=3,
            fixed="import torch\n"
                  "from torch import nn\n"
                  "model = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.ReLU(), nn.Linear(8, 1))\n"
                  "model(torch.randn(2, 4)).sum().backward()\n"),
    # a forward hook writing the output its module saved: the hook writes a copy and returns it
    Invalid("import torch\n"
            "from torch import nn\n"
            "def shrink(module, inputs, output):\n"
            "    output.mul_(0.9)\n"
            "model = nn.Sequential(nn.Linear(4, 4), nn.Tanh())\n"
            "model[1].register_forward_hook(shrink)\n"
            "model(torch.randn(2, 4)).sum().backward()\n", line=4,
            fixed="import torch\n"
                  "from torch import nn\n"
                  "def shrink(module, inputs, output):\n"
                  "    output = output.clone()\n"
                  "    output.mul_(0.9)\n"
                  "    return output\n"
                  "model = nn.Sequential(nn.Linear(4, 4), nn.Tanh())\n"
                  "model[1].register_forward_hook(shrink)\n"
                  "model(torch.randn(2, 4)).sum().backward()\n"),
)
