"""What PyTorch ops save for backward, which results are views, which calls are in place.

The facts live in ``ops.json`` beside this file, generated from torch's own autograd metadata
(torchgen's derivatives.yaml / native_functions.yaml) and confirmed by runtime probes -- see
``generate.py``, ``probes.py`` and docs/knowledge.md. This module only reads that file: it never
imports torch, and it loads the file once per process.

JSON layout (``ops.json``)::

    {
      "torch_version": "2.13.0",
      "aten": {                                  # every differentiable ATen overload torchgen knows
        "mul.Tensor": {"saved": {"self": ["other"], "other": ["self"]}, "saves_result": [],
                        "inplace": false, "view": false}, ...
      },
      "python": {                                # the Python surface users write
        "torch.Tensor.mul": {
          "kind": "method",                      # function | method | operator | module
                                                 # (| attribute: x.T, x.data -- read, not called)
          "params": ["self", "other"],           # call parameters in positional order
          "kwonly": ["out"],                     # keyword-only parameters
          "tensor_params": ["self", "other"],
          "saves": [{"target": "other", "when": ["self"]},
                    {"target": "self", "when": ["other"]}],
                                                 # a list parameter's save may say "each": "others":
                                                 # each element is saved when another one may require
                                                 # grad (einsum's operands, like a product's factors)
          "view_of": [],                         # params whose version counter the result shares
          "may_alias": [],                       # params the result may *be* (.float(), .contiguous())
          "differentiable": true,                # result requires grad when a tensor input does
          "inplace": null,                       # or {"modifies": "self", "kwarg": null|"inplace",
                                                 #     "saves": [...]}  saves made by the in-place form
          "ctor_params": [],                     # modules: constructor parameters in order
          "aten": "mul.Tensor",
          "probed": true
        }, ...
      },
      "inplace_methods": ["abs_", "add_", ...],  # every Tensor method that modifies self
      "augmented_operators": {"*=": "torch.Tensor.mul_", ...}
    }

Overloads that save different tensors get a second key ``"<name>#<param>"`` (for example
``"torch.Tensor.max#dim"``): the form used when ``<param>`` is passed (positionally or by keyword).
A key ``"<name>#<param>=tensor"`` is the form used when ``<param>`` is a tensor where the base entry
describes the common non-tensor spelling: ``"torch.Tensor.__getitem__#key=tensor"`` (``x[idx]`` with
a tensor index is a gather that keeps ``idx``, not a view), ``"operator.pow#other=tensor"`` (the
base ``operator.pow`` is ``x ** 2``; with a tensor exponent torch also saves the result). A key
``"<name>#<param>=number"`` is the form used when ``<param>`` is a Python number rather than a
tensor, present only where torch's number overload saves differently from the all-tensor base
entry (none on torch 2.13.0 besides the pow family, whose base is already the number form).
See :meth:`Knowledge.lookup_call`.

Further optional fields (the loader supplies defaults): ``"param_saves"`` (modules: own parameters
saved for backward, ``target`` a ``named_parameters()`` name such as ``"weight"``; an in-place change
of it, e.g. ``optimizer.step()`` before ``backward()``, raises), ``"aten"`` / ``"aten_ops"`` (the
ATen overload(s) the call reaches), ``"no_backward"`` (backward raises "not implemented"),
``"multi_view"`` (its outputs are views of one input that torch refuses to modify in place while
grad is on: ``split``, ``chunk``, ``unbind``), ``"writes_given"`` (``{"kwarg": "max_norm", "target":
"weight"}``: given that keyword, not None, the call first writes the target in place under no_grad --
a parameter, or ``"@param:<name>"``, the module's own; ``F.embedding`` and ``nn.Embedding`` renormalise
the rows they look up), ``"returns"`` (how many values the Python call returns when it is not one:
``torch.sort`` 2; ``F.nll_loss`` returns one tensor though its ATen overload returns two).
For an always-in-place entry (``torch.Tensor.add_``) ``saves`` equals ``inplace.saves``.

In ``"aten"``, ``"saved"`` maps each saved tensor argument to the differentiable inputs of which one
must require grad (target -> when, as torchgen's ``should_compute_output`` guards decide);
``"original_self"`` is the private clone an in-place overload keeps; ``"saves_result"`` lists saved
outputs (saved whenever the autograd node is created).

A save's ``target`` is a parameter name or ``"result"``; ``when`` lists the parameters of which
at least one must require grad for the save to happen (``"@params"``: the module's own parameters,
which require grad by default). A "result" save of an in-place form saves the modified tensor
*after* the write (``relu_`` keeps its output); parameter saves happen before the write.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Dict, List, Mapping, Optional, Tuple

MODULE_PARAMS = "@params"


@dataclass(frozen=True)
class Save:
    target: str  # parameter name or "result"
    when: Tuple[str, ...]  # saved when any of these may require grad
    for_others: bool = False  # a list parameter: each element is saved when another may require grad


@dataclass(frozen=True)
class InplaceForm:
    modifies: str  # the parameter written in place
    kwarg: Optional[str]  # None: always in place; "inplace": only when that keyword is true
    saves: Tuple[Save, ...]


@dataclass(frozen=True)
class OpInfo:
    name: str
    kind: str
    params: Tuple[str, ...]
    kwonly: Tuple[str, ...]
    tensor_params: Tuple[str, ...]
    saves: Tuple[Save, ...]
    view_of: Tuple[str, ...]
    may_alias: Tuple[str, ...]
    differentiable: bool
    inplace: Optional[InplaceForm]
    ctor_params: Tuple[str, ...]
    aten: Optional[str]
    param_saves: Tuple[Save, ...] = ()  # modules: own parameters saved (target: parameter name)
    multi_view: bool = False  # outputs are views torch refuses to modify in place (split, unbind)
    # (keyword, target): given the keyword (not None), the call first writes the target in place under
    # no_grad -- a parameter, or "@param:<name>", the module's own (``max_norm`` renormalises rows)
    writes_given: Optional[Tuple[str, str]] = None
    # how many values the Python call returns, measured (ATen's overload may return more: F.nll_loss
    # runs nll_loss_forward, which also returns total_weight)
    returns: int = 1
    # the tensor parameters that carry grad into the result, measured one at a time (None: every tensor
    # parameter; gather's ``index``, masked_fill's ``mask`` do not)
    grad_inputs: Optional[Tuple[str, ...]] = None

    @property
    def saves_result(self) -> bool:
        return any(s.target == "result" for s in self.saves)


def _saves(raw) -> Tuple[Save, ...]:
    return tuple(Save(s["target"], tuple(s.get("when", ())), s.get("each") == "others") for s in raw or ())


def _op(name: str, raw: Mapping) -> OpInfo:
    inplace = raw.get("inplace")
    return OpInfo(
        name=name,
        kind=raw.get("kind", "function"),
        params=tuple(raw.get("params", ())),
        kwonly=tuple(raw.get("kwonly", ())),
        tensor_params=tuple(raw.get("tensor_params", ())),
        saves=_saves(raw.get("saves")),
        view_of=tuple(raw.get("view_of", ())),
        may_alias=tuple(raw.get("may_alias", ())),
        differentiable=bool(raw.get("differentiable", True)),
        inplace=(
            InplaceForm(inplace["modifies"], inplace.get("kwarg"), _saves(inplace.get("saves")))
            if inplace
            else None
        ),
        ctor_params=tuple(raw.get("ctor_params", ())),
        aten=raw.get("aten"),
        param_saves=_saves(raw.get("param_saves")),
        multi_view=bool(raw.get("multi_view", False)),
        writes_given=(raw["writes_given"]["kwarg"], raw["writes_given"]["target"]) if raw.get("writes_given")
        else None,
        returns=int(raw.get("returns", 1)),
        grad_inputs=tuple(raw["grad_inputs"]) if "grad_inputs" in raw else None,
    )


class Knowledge:
    """Indexed view of ops.json. Build with :func:`load`; entries are parsed on first lookup."""

    def __init__(self, data: Mapping):
        self.torch_version: str = data.get("torch_version", "")
        self._python: Mapping = data.get("python", {})
        self._cache: Dict[str, Optional[OpInfo]] = {}
        self._variant_index: Optional[Dict[str, Tuple[str, ...]]] = None
        self.inplace_methods = frozenset(data.get("inplace_methods", ()))
        self.augmented_operators: Mapping[str, str] = data.get("augmented_operators", {})
        self.aten: Mapping = data.get("aten", {})
        self._foreach_inplace: Optional[frozenset] = None

    def foreach_inplace(self, qualified_name: str) -> bool:
        """``torch._foreach_add_``: ATen's in-place op on every tensor of a list (its first argument)."""
        if self._foreach_inplace is None:
            self._foreach_inplace = frozenset(
                "torch." + key.split(".")[0] for key, entry in self.aten.items()
                if key.startswith("_foreach_") and entry.get("inplace"))
        return qualified_name in self._foreach_inplace

    def names_with_parameter(self, parameter: str) -> List[str]:
        """The qualified names of the callables taking ``parameter`` (or whose module class's constructor
        does), read off the raw entries: parsing every entry into an OpInfo costs each process ~15 ms."""
        return [name for name, raw in self._python.items()
                if parameter in raw.get("params", ()) or parameter in raw.get("ctor_params", ())]

    def lookup(self, qualified_name: str) -> Optional[OpInfo]:
        """``torch.exp``, ``torch.Tensor.exp``, ``torch.nn.functional.relu``, ``torch.nn.ReLU``,
        ``operator.mul`` ... -> OpInfo, or None when torch has no such differentiable API."""
        if qualified_name in self._cache:
            return self._cache[qualified_name]
        raw = self._python.get(qualified_name)
        info = _op(qualified_name, raw) if raw is not None else None
        self._cache[qualified_name] = info
        return info

    def lookup_call(
        self,
        qualified_name: str,
        passed: "frozenset[str]" = frozenset(),
        numbers: "frozenset[str]" = frozenset(),
        tensors: "frozenset[str]" = frozenset(),
    ) -> Optional[OpInfo]:
        """Like :meth:`lookup`, preferring the ``name#param`` overload whose parameter was passed.
        ``numbers`` / ``tensors``: parameters known to be bound to Python numbers (``x ** 2``:
        ``{"other"}``) / to tensors (``x[idx]``: ``{"key"}``); a ``name#param=number`` /
        ``name#param=tensor`` form is preferred when one exists."""
        for kind, params in (("number", numbers), ("tensor", tensors)):
            for param in sorted(params):
                key = qualified_name + "#" + param + "=" + kind
                if key in self._python:
                    return self.lookup(key)
        for param in sorted(passed):
            key = qualified_name + "#" + param
            if key in self._python:
                return self.lookup(key)
        return self.lookup(qualified_name)

    def variants(self, qualified_name: str) -> Tuple[str, ...]:
        """The ``name#param`` overload keys of an API, sorted."""
        index = self._variant_index
        if index is None:
            index = {}
            for key in self._python:
                if "#" in key:
                    index.setdefault(key.split("#", 1)[0], []).append(key)
            index = self._variant_index = {k: tuple(sorted(v)) for k, v in index.items()}
        return index.get(qualified_name, ())

    def method(self, name: str) -> Optional[OpInfo]:
        return self.lookup("torch.Tensor." + name)

    def is_inplace_method(self, name: str) -> bool:
        return name in self.inplace_methods

    def names(self):
        return self._python.keys()


@lru_cache(maxsize=None)
def load() -> Knowledge:
    """The shipped knowledge, read once per process."""
    text = resources.files(__name__).joinpath("ops.json").read_text(encoding="utf-8")
    return Knowledge(json.loads(text))


def _tensor_names() -> Dict[str, frozenset]:
    """The hand-listed name sets of ``tensor_names.json`` (checked against torch by tests/test_knowledge.py)."""
    text = resources.files(__name__).joinpath("tensor_names.json").read_text(encoding="utf-8")
    return {key: frozenset(names) for key, names in json.loads(text).items() if not key.startswith("_")}


_NAMES = _tensor_names()
# Tensor methods that return a view of their receiver (reshape, flatten and unflatten: when they can)
VIEW_METHODS = _NAMES["view_methods"]
# ... of which these copy when the receiver's strides do not allow a view
MAY_COPY_VIEWS = _NAMES["may_copy_views"]
# ... and these never copy: what they return shares its receiver's storage and version counter
ALIASING_VIEW_METHODS = VIEW_METHODS - MAY_COPY_VIEWS
# Attributes that are views of the tensor: ``x.T``, ``x.mT``, ``x.H``, ``x.mH`` (transposes) ...
TRANSPOSING_ATTRIBUTES = _NAMES["transposing_attributes"]
# ... and ``x.real``, ``x.imag`` (of a complex tensor; ``x.real`` of a real one is ``x`` itself)
VIEW_ATTRIBUTES = TRANSPOSING_ATTRIBUTES | _NAMES["complex_part_attributes"]
# Attributes a write through reaches the tensor by: its views, and ``x.data`` (its storage, under a
# version counter of its own)
WRITE_THROUGH_ATTRIBUTES = VIEW_ATTRIBUTES | _NAMES["storage_attributes"]
# Views (methods and attributes) that are non-contiguous for almost every input, and the ops that copy
# such an input instead of viewing it
STRIDED_VIEWS = _NAMES["strided_views"]
COPY_WHEN_STRIDED = _NAMES["copy_when_strided"]
# Methods whose result the analysis takes to require no grad: torch's never does; or torch's does, but
# its gradient is zero (sign) or not implemented (floor_divide, unique); or torch functions met as a
# method of a receiver the analysis does not know (``<module>.zeros_like(x)``)
NON_DIFFERENTIABLE_METHODS = (_NAMES["non_differentiable_methods"] | _NAMES["zero_gradient_methods"]
                              | _NAMES["functions_met_as_methods"])
# torch functions that make a fresh tensor (a leaf when given requires_grad=True)
FACTORIES = frozenset("torch." + name for name in _NAMES["factories"])
# Calls building a parameter or a buffer (a leaf)
PARAMETER_CTORS = _NAMES["parameter_constructors"]
# Context managers (and decorators) that turn grad off, on, or to their argument; those that hook saved tensors
NOGRAD_CONTEXTS = _NAMES["no_grad_contexts"]
ENABLE_GRAD = _NAMES["enable_grad_contexts"]
SET_GRAD = _NAMES["set_grad_contexts"]
SAVED_TENSOR_HOOKS = _NAMES["saved_tensor_hooks"]
# Tensor methods and attributes whose value is no tensor (``x.size()``, ``x.shape``); ``.names`` was one
# (named tensors) before torch 2.13, and older code still reads it
NON_TENSOR_METHODS = _NAMES["non_tensor_methods"]
NON_TENSOR_ATTRIBUTES = _NAMES["non_tensor_attributes"] | _NAMES["former_tensor_attributes"]
# Methods of Python's lists, dicts and deques that a tensor does not have: a name called with one
# (``feat_cache.append(x)``) is a container, never a tensor
PYTHON_CONTAINER_METHODS = _NAMES["python_container_methods"]
# The fixes' out-of-place twins of in-place methods: in-place methods whose out-of-place Tensor method
# ops.json does not list (it lists differentiable APIs), twins whose result differs from what the
# in-place form leaves in the tensor, and methods ending in "_" that write no tensor data, never rewritten
# (with two names torch has no such method for: ``pin_memory_``, ``retain_grad_``)
EXTRA_METHOD_TWINS = _NAMES["extra_method_twins"]
TWINS_WITH_ANOTHER_RESULT = _NAMES["twins_with_another_result"]
NOT_DATA_WRITES = _NAMES["not_data_writes"] | _NAMES["not_tensor_methods_left_alone"]


@lru_cache(maxsize=None)
def _multi_view_nodes() -> Dict[str, str]:
    """``multi_view_nodes.json``: the node torch names in its error (checked against torch by
    tests/test_knowledge.py); read when a finding first needs it."""
    text = resources.files(__name__).joinpath("multi_view_nodes.json").read_text(encoding="utf-8")
    return dict(json.loads(text)["nodes"])


def multi_view_node(qualname: str, sizes: Optional[bool] = None) -> Optional[str]:
    """The autograd node torch names when an output of ``qualname`` (a multi-view op) is written in place
    ("Split" in "Output 0 of Split is a view ..."); ``sizes``: split by a list of sizes (True), by an int
    (False), not known (None). None when torch's name is not known: a split of unknown size argument."""
    nodes = _multi_view_nodes()
    plain, by_sizes = nodes.get(qualname), nodes.get(qualname + "#sizes")
    if by_sizes is None:
        return plain
    if sizes is None:
        return None
    return by_sizes if sizes else plain
