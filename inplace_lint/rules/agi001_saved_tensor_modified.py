"""## What it does
Flags an in-place operation (``*=``, ``+=``, ``x.add_()``, ``x[i] = v``, ``x[mask] *= 0`` (an
``index_put_`` on ``x``), ``F.relu(x, inplace=True)``, a module built with ``inplace=True``, also through
``functools.partial(nn.ReLU, inplace=True)``, or switched in place after it was built
(``for m in self.modules(): if isinstance(m, nn.Dropout): m.inplace = True``), ``out=x``, the fused ``torch._foreach_add_(tensors, ...)``
on every tensor of its list, ``laterals[i - 1] += up`` on the tensor in a list's or dict's slot, a custom
``autograd.Function`` whose forward writes an input in place (``ctx.mark_dirty(x)``: ``Fn.apply(h)``
writes ``h``)) on a tensor that an earlier operation saved for the backward pass, when a later backward
can still reach that operation.

The write may sit in a helper function or in a method of a module class of the same file that writes what
it is passed (``def forward(self, seqs, mask): seqs *= mask``, or ``self.act(x)`` with ``self.act =
nn.ReLU(inplace=True)`` on the ``x`` it is passed), also through calls that pass it on
(``scores = self.regularise(labels, scores)`` with ``logits += self.neg_bias`` in ``regularise``), or of
a plain class of the file (``scaler.scale_loss(loss)`` with ``loss *= self.scale``): the caller's tensor
is written, and the finding is on the helper's line. A helper that hands back what it is passed, or a
view of it (``return t.reshape(-1, d)``), gives its caller that tensor; ``x.to(torch.float32)`` is ``x``
itself on a tensor of the default dtype, as ``x.float()`` is, and ``nn.Identity()`` returns its input.

The save may sit in a function or a method of the same file, the write in its caller: a helper whose
returned value came from ops that saved its parameters (``def scores(q, k): return q @ k.transpose(-1,
-2)``) saves what the caller passes for them, for as long as the caller holds the result, so the caller's
``q.mul_(0.5)`` after ``w = scores(q, k)`` is found; the message names the op inside (``its parameter 'q',
which 'q @ k.transpose(-1, -2)' saves``). A parameter counts as saved only when an argument whose
requiring grad made the save does at the call (``scale(x, 0.5)`` with ``return x * factor`` saves
nothing); a result the caller discards, or turns into a number with ``.item()``, keeps no save. A module
class of the same file saves, when called, what its analysed ``forward`` saves of its arguments (a
module the file cannot see is taken to save its positional inputs). A function or method that builds
and returns a module (``def conv_bn_relu(...): return nn.Sequential(..., nn.ReLU(inplace=True))``,
``self._make_layer(...)``) gives its callers that module, so the output its in-place ReLU saved is known;
each call builds other parameters. A submodule called through a module of this file that a helper is
handed (``x_0 = model.embedding(input_ids)``, its ``__init__`` building ``self.embedding``) saves what that
submodule saves, as ``self.embedding(input_ids)`` would: the embedding's indices, so a later
``input_ids.masked_fill_(...)`` is found.

That includes a forward hook of the same file that edits its module's output in place
(``model.act.register_forward_hook(scale)`` with ``output.mul_(0.5)`` in ``scale``): the hook runs right
after the module's forward, when a sigmoid, a ReLU or a softmax has already saved that output. The finding
is on the hook's write, and names the hooked module. A registration is followed where the hooked module's
forwards are recorded as far as the file shows: inside a module class, or in a function (or script) that
runs a backward itself; an ablation script that edits outputs under ``no_grad`` is left alone.

Likewise a method of a module class of the same file that writes the module's own parameters in place
(``for t in self.state_dict().values(): t.clamp_(-c, c)``) or one of its tensor attributes, called from
outside the class between a forward and its backward (``critic.clip_weights(0.01)`` before
``loss.backward()``, as in WGAN weight clipping): the finding is on the method's write.

So does a lookup in an embedding built with ``max_norm`` (``nn.Embedding(n, d, max_norm=1.0)``, or
``F.embedding(ids, table, max_norm=1.0)``): each call first renormalises the rows it looks up, in place,
so an earlier op that saved the weight (a tied output layer's ``h @ emb.weight.t()``) finds it changed.
That earlier op may be a previous forward of a module class of the same file that looks rows up in such
an embedding (``self.emb``, built in its ``__init__``): a step-by-step decoder with tied embeddings,
called for every step before one backward over the summed loss. Only a literal number or bool counts as
given (``max_norm=True`` is 1.0 to torch; a name may hold ``None``, which renormalises nothing).

## Why is this bad?
Autograd keeps some tensors alive for backward: ``a * b`` saves both inputs, ``torch.exp(x)`` and
``torch.sigmoid(x)`` save their result, ``x + y`` saves none. Every tensor carries a version counter
that each in-place operation bumps (views and ``.detach()`` share it with their base). When backward
reaches the operation that saved the tensor, it finds the version moved and raises::

    RuntimeError: one of the variables needed for gradient computation has been modified by an
    inplace operation: [torch.FloatTensor []], which is output 0 of Mul, is at version 5;
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
Every fix rewrites the write so that it no longer touches the tensor autograd saved: the forward values
stay the same and backward can run. The fixed code allocates a new tensor where the original reused
memory; that is the price of a computable gradient. Per form:

- ``b *= v`` becomes ``b = b * v`` (``v`` parenthesised when needed: ``b = b * (c + 1)``).
- ``x.add_(y)`` as a statement becomes ``x = x.add(y)``; a method without an out-of-place twin of the
  same result (``zero_``, ``fill_``, ``copy_``, the random fills, ``eq_``) becomes ``x = x.clone().zero_()``.
  ``torch.relu_(x)`` becomes ``x = torch.relu(x)``, ``torch.mul(a, b, out=x)`` becomes
  ``x = torch.mul(a, b)``.
- Inside a larger expression (``z = x.relu_()``, ``return x.mul_(2)``, ``y = x.add_(1) * 2``) the call is
  written out of place only when ``x`` is not read afterwards, or is rebound too (``z = x = x.relu()``);
  otherwise there is no fix.
- ``F.relu(x, inplace=True)`` loses ``inplace=True``; as a statement of its own it becomes
  ``x = F.relu(x)``.
- ``laterals[i] += up`` on a list's or dict's element becomes ``laterals[i] = laterals[i] + up`` (the
  slot gets the new tensor); safe when only that list or dict, built in the function, holds the tensor.
- ``h = Fn.apply(h)`` with a custom Function that writes its first input in place becomes
  ``h = Fn.apply(h.clone())``; a Function writing a later input has no fix.
- ``y[i] = v``, ``y[i] += v`` and writes through a view (``h[2:].zero_()``, ``h.t().mul_(2)``) get
  ``y = y.clone()`` on the line before (one clone for consecutive writes). There is no fix when the same
  statement also saves the tensor (``hs[t + 1] = f(hs[t])``: the clone would be what is saved; collect the
  states in a list and ``torch.stack`` them instead) or when the tensor is not a plain local name.
- A module built with ``inplace=True`` loses it (a positional ``True`` is removed, or becomes ``False``
  when more positional arguments follow): in place for an element of ``nn.Sequential``, in the
  constructor (possibly on another line) for a module attribute called in ``forward``. A module switched
  in place after it was built (``m.inplace = True``) is handed a copy instead: ``self.drop(h)`` becomes
  ``self.drop(h.clone())`` (safe when nothing else sees ``h``; none when the call is a statement of its
  own, which relies on the write).
- A forward hook's write to its output gets ``output = output.clone()`` as the hook's first statement and
  ``return output`` as its last: a forward hook's return value replaces the module's output, so the
  caller sees the same values (rebinding the name alone would drop the hook's effect). No fix when the
  hook already returns or yields somewhere.
- A call of a method that writes its module's own tensors (``critic.clip_weights(0.01)``) moves to just
  after the next ``loss.backward()`` of its block: the write is the method's purpose, and after the
  backward it no longer reaches what backward reads. No fix when the method is called from several
  places, or when a statement between the call and the backward mentions the module (another forward
  would see its tensors unwritten) or holds a block.
- A ``max_norm`` lookup's write has a fix at the other end: the op that saved the weight gets a copy
  (``emb.weight.clone()`` in place of ``emb.weight``, or ``(expr).clone()``), as torch's
  documentation of ``nn.Embedding`` advises. The renormalisation is what ``max_norm`` is for; the copy
  has the same values, and the gradient flows through it to the weight. When the save was made by an
  earlier call of the module (``decoder.step(...)``), the copy goes where the module's own ops saved the
  weight (``F.linear(h, self.emb.weight.clone())``).
- A fused ``torch._foreach_*_`` write has no fix (it writes a list of tensors, often parameters).
- ``optimizer.step()`` has no fix: the parameters have to change in place. Call the step after the last
  backward that needs the old parameters (``loss.backward(); aux.backward(); opt.step()``), or run the
  forward pass again after the step. Likewise ``module.load_state_dict(...)``, and a helper's update of a
  tensor of the module it is passed (``def decay_(layer, wd): layer.weight.mul_(1 - wd)``, called as
  ``decay_(model.head, wd)`` between the forward and the backward), reported as a parameter update.

A fix is **safe** when the written tensor is a local name that nothing else can see: rebinding the name
then changes nothing but which tensor backward reads. It is **unsafe** when the write also updated a
tensor seen elsewhere, because the out-of-place form no longer does: an attribute (``self.h``), a view or
alias held by another name that is read again (``v = h.view(-1)``, ``c = h.contiguous()``,
``z = y.detach()``: ``h`` or ``y`` keeps its old values), a write through a view whose base may be
shared, an argument the caller keeps, a parameter, a global. Removing ``inplace=True`` from a module
attribute's constructor changes every call of that module: it is safe when the module is called once in
its class, or when every call rebinds its own argument (``out = self.relu(out)``, as in ResNet blocks),
and unsafe otherwise (a caller may rely on its input being overwritten). An
``inplace=True`` element of ``nn.Sequential`` is safe when an earlier element of the same container saved
the tensor: the overwritten tensor then exists only inside the container.

One difference remains even for safe fixes: the in-place form keeps the target's dtype, the out-of-place
form follows type promotion. ``x.add_(y)`` with a float32 ``x`` and a float64 tensor ``y`` stays float32;
``x = x.add(y)`` is float64 (``out=x`` likewise kept ``x``'s dtype). Mixed-precision code should check.

## Known problems
The analysis is per function, with summaries of the functions and methods of the same file: what a
function or method returns that its own ops saved (also element by element of a returned tuple, as in
``logits, h = policy.act(obs, h)``), whether what a method of a module class returns was computed by ops
that saved the module's parameters (so ``policy.act(obs)``, then ``opt.step()``, then the backward is
reported, as a call of the module itself already was), and which of its parameters, module parameters
(``for p in model.parameters(): p.mul_(d)``, ``layer.weight.mul_(d)``), submodules' tensors
(``for m in model.modules(): m.mask.copy_(new)``) or ``self`` tensors a helper writes in place. A tensor
saved inside a function it cannot see (an unknown module's ``forward``, a forward hook that keeps its
output for a loss), or by another method through ``self`` (a memory bank saved in one method and written
in another), is not known to be saved, so in-place changes of such results are not reported; what a method
of the caller's own class returns is known to hold the saves its ops made of the module's parameters
(``def catalogue(self): return self.proj(self.item_emb.weight)``, then a ``max_norm`` lookup). A
parameter unpacked (``h, c = state``) is taken to be a tuple of distinct tensors, not a tensor's rows.

A layer class held in a name or parameter (``act_layer=nn.ReLU``, ``act = nn.ReLU``,
``act_layer=partial(nn.ReLU6, inplace=True)``, a table ``ACTS["relu"]``) builds that module when called
(``act_layer(inplace=True)``); a parameter is taken to be its default, unless every call of a function
(or every construction of a module class that is only ever built directly) passes one known layer there
(``Block(act_layer=partial(nn.ReLU, inplace=True))``); calls passing different layers, or a class also
passed around or subclassed, leave the default. An ``inplace=inplace`` flag whose parameter defaults to
``True`` is True when no call of the function (no construction of the class) passes it and the name is
never passed around (``partial(Block, inplace=False)``). A function of the file
that only picks what it returns by a string (DETR's ``_get_activation_fn(activation)``: ``if activation
== "relu": return F.relu``) returns, called with a string or a parameter's string default, that choice.

``m.inplace = True`` switches modules of the classes its ``if`` tests pick (``isinstance(m, (nn.ReLU,
nn.Dropout))``, or a class-name test such as ``classname.find("ReLU") != -1``; every module with an
``inplace`` flag when there is no such test) wherever the file builds them: which model the loop or
``model.apply(fn)`` runs over is not followed.

Modules taken out of a list (``for block in self.blocks``, ``self.heads[i]``) or chosen on a branch are
called as the module they are when all agree, else as a module the analysis cannot see into, which is
taken to save what it is passed positionally (and its parameters), not its output; one called on lists
of tensors (a centralised critic's ``critic(observations, actions)``) computes with its parameters as on a
tensor, so an optimizer step before a backward through it is found. When one of them is
``nn.Identity()`` (``nn.Conv2d(a, b, 1) if a != b else nn.Identity()``) the call may hand back its input
itself: writing the result writes the input (and a view torch refuses to write stays one), and that
call is not also taken to save its input.

Forward hooks: a hook that is a function of the same file passed by name, or that a factory of the file
returns (``self._make_hook(name)``: a function defining the hook and returning it), registered with
``register_forward_hook`` on a module the analysis knows (an attribute built in ``__init__``, an element
of ``nn.Sequential``, or a module of a loop over ``model.modules()`` inside ``if isinstance(m, nn.Tanh):``,
the class or a tuple's first), is followed; such hooks put on every module of a class count as recording
grad when the file runs a backward anywhere. Lambdas and ``register_forward_pre_hook`` are not followed,
nor which model the loop runs over.
"""

CODE = "AGI001"
NAME = "saved-tensor-modified-inplace"
SUMMARY = "In-place modification of a tensor that an earlier op saved for backward"
