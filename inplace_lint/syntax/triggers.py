"""What counts as an in-place trigger, and which shapes make a name another name for a parameter's
tensors: declared once, read by the selection's first look over ``ast`` (inplace_lint.syntax.select) and
by the interpreter over LibCST (inplace_lint.analysis).

The tables are plain data. The few shapes that are more than a name (a loop over a module's
parameters, an alias of a parameter) are written once here over a :class:`Shapes`, the thin adapter each
tree supplies (``AST_SHAPES`` in select.py, ``CST_SHAPES`` in analysis/parameters.py): how that tree
spells a name, a method call, a call of a plain name, a tuple or list, a conditional expression.
"""

from __future__ import annotations

from typing import Dict, Iterable, List, Mapping, Optional, Tuple

from inplace_lint.knowledge import load

# Stores to these attributes of a tensor are in-place syntax (``x.requires_grad = True``, ``p.data = w``)
STORE_ATTRIBUTES = frozenset({"requires_grad", "data", "grad"})

# Calls that overwrite parameters in place: an optimizer's step, a module's load_state_dict; and the
# registration of a forward hook, which may write the module's output in place on every forward
OPTIMIZER_STEP = "step"
LOAD_STATE_DICT = "load_state_dict"
REGISTER_FORWARD_HOOK = "register_forward_hook"
PARAMETER_UPDATES = frozenset({OPTIMIZER_STEP, LOAD_STATE_DICT, REGISTER_FORWARD_HOOK})

# In-place methods whose names do not end in a single underscore; the knowledge adds the rest
KNOWN_DUNDERS = frozenset({
    "__setitem__", "__iadd__", "__isub__", "__imul__", "__itruediv__", "__ifloordiv__", "__imod__",
    "__ipow__", "__iand__", "__ior__", "__ixor__", "__ilshift__", "__irshift__", "__imatmul__",
})

# Keywords whose value makes a call write in place: ``inplace=True``, ``out=x``, ``max_norm=<number>``
# (an embedding that renormalises its weight on every lookup)
INPLACE_KEYWORD = "inplace"
OUT_KEYWORD = "out"
MAX_NORM_KEYWORD = "max_norm"

# Each augmented assignment's symbol -> (ast's operator class, LibCST's assignment operator class)
AUGMENTED_ASSIGNMENTS: Mapping[str, Tuple[str, str]] = {
    "*=": ("Mult", "MultiplyAssign"),
    "/=": ("Div", "DivideAssign"),
    "+=": ("Add", "AddAssign"),
    "-=": ("Sub", "SubtractAssign"),
    "**=": ("Pow", "PowerAssign"),
    "@=": ("MatMult", "MatrixMultiplyAssign"),
    "//=": ("FloorDiv", "FloorDivideAssign"),
    "%=": ("Mod", "ModuloAssign"),
    "&=": ("BitAnd", "BitAndAssign"),
    "|=": ("BitOr", "BitOrAssign"),
    "^=": ("BitXor", "BitXorAssign"),
    "<<=": ("LShift", "LeftShiftAssign"),
    ">>=": ("RShift", "RightShiftAssign"),
}

# The Module methods that walk submodules -> whether they yield (name, module) pairs
MODULE_WALKS = {"modules": False, "children": False, "named_modules": True, "named_children": True}
# ... that walk its own tensors, likewise
PARAMETER_WALKS = {"parameters": False, "named_parameters": True}
# ``model.state_dict().items()`` / ``.values()``: detached tensors sharing the parameters' version
# counters, walked as the parameter walk they stand for
STATE_DICT_WALKS = {"items": "named_parameters", "values": "parameters"}
# What runs a backward: ``loss.backward()``, ``torch.autograd.grad(loss, x)``
BACKWARD_METHOD = "backward"
BACKWARD_FUNCTION = "torch.autograd.grad"

# torch APIs that call the function handed to them (their first argument) with tensors that require grad:
# every function of these modules, and these functions
AUTOGRAD_CALLER_MODULES = ("torch.autograd.functional.", "torch.func.", "torch.utils.checkpoint.")
AUTOGRAD_CALLER_FUNCTIONS = frozenset({"torch.autograd.gradcheck", "torch.autograd.gradgradcheck", "torch.vmap"})
# ... by their last names, as the selection matches them (it resolves no import): those functions, and the
# functions of those modules that take one (tests/test_triggers.py checks each against torch)
AUTOGRAD_CALLER_SHORT_NAMES = frozenset(
    {name.rsplit(".", 1)[-1] for name in AUTOGRAD_CALLER_FUNCTIONS}
    | {"jacobian", "hessian", "vjp", "jvp", "hvp", "vhp", "checkpoint", "grad", "grad_and_value", "jacrev", "jacfwd"})

# A layer's parameters by name (``layer.weight.mul_(...)`` writes the module passed as ``layer``)
LAYER_PARAMETERS = frozenset({"weight", "bias"})


_DUNDERS: Optional[frozenset] = None
_FLAG_CALLEES: Optional[frozenset] = None


def inplace_dunders() -> frozenset:
    """In-place methods whose names do not end in a single underscore (``__iadd__``, ``__setitem__``), and
    the always-in-place torch callables named so."""
    global _DUNDERS
    if _DUNDERS is None:
        names = set(KNOWN_DUNDERS)
        try:
            knowledge = load()
            for qualname in knowledge.names():
                info = knowledge.lookup(qualname)
                if info is None or info.inplace is None or info.inplace.kwarg is not None:
                    continue  # in place only with inplace=True: the keyword or a positional True is the cue
                short = qualname.split("#")[0].split(".")[-1]
                if not short.endswith("_") or short.endswith("__"):
                    names.add(short)
            names.update(m for m in knowledge.inplace_methods if m.endswith("__"))
        except Exception:  # pragma: no cover - the shipped knowledge always loads
            pass
        _DUNDERS = frozenset(names)
    return _DUNDERS


def inplace_flag_callees() -> frozenset:
    """Short names of the torch callables with an ``inplace`` parameter (``nn.ReLU``, ``F.dropout``): only
    for these is a positional ``True`` read as "in place" (``nn.ReLU(True)``)."""
    global _FLAG_CALLEES
    if _FLAG_CALLEES is None:
        names = set()
        try:
            for qualname in load().names_with_parameter(INPLACE_KEYWORD):
                names.add(qualname.split("#")[0].split(".")[-1])
        except Exception:  # pragma: no cover - the shipped knowledge always loads
            pass
        _FLAG_CALLEES = frozenset(names)
    return _FLAG_CALLEES


def may_write_in_place(name: str) -> bool:
    """A call of this name may write in place (``add_``, ``__iadd__``, ``optimizer.step``): the selection's
    cue, a superset of what the interpreter reads as a write."""
    if name.endswith("_") and not (name.startswith("__") and name.endswith("__")):
        return True
    return name in PARAMETER_UPDATES or name in inplace_dunders()


class Shapes:
    """How one syntax tree spells the shapes the functions below read (each answers None otherwise)."""

    def name(self, node) -> Optional[str]:
        """The identifier of a plain name."""
        raise NotImplementedError

    def method_call(self, node) -> Optional[Tuple[object, str, bool]]:
        """(receiver, method, whether arguments are passed) of ``receiver.method(...)``."""
        raise NotImplementedError

    def function_call(self, node) -> Optional[Tuple[str, List[object]]]:
        """(name, argument expressions) of ``name(...)``."""
        raise NotImplementedError

    def elements(self, node) -> Optional[List[object]]:
        """The elements of a tuple or list."""
        raise NotImplementedError

    def branches(self, node) -> Optional[Tuple[object, object]]:
        """(body, orelse) of a conditional expression ``body if test else orelse``."""
        raise NotImplementedError


def _walked_name(target, pairs: bool, shapes: Shapes) -> Optional[str]:
    """The name a walk's loop target binds to each element: ``m`` of ``for m in ...``, or of ``for name, m
    in ...`` when the walk yields pairs."""
    if not pairs:
        return shapes.name(target)
    elements = shapes.elements(target)
    if elements is not None and len(elements) == 2:
        return shapes.name(elements[1])
    return None


def module_loop_names(loop, target, params: Iterable[str], shapes: Shapes) -> Dict[str, str]:
    """Loop name -> parameter, for ``for <target> in <loop>`` over a parameter's submodules: ``for m in
    model.modules()``, ``for name, m in model.named_modules()`` (and ``children``)."""
    call = shapes.method_call(loop)
    if call is None or call[1] not in MODULE_WALKS:
        return {}
    holder = shapes.name(call[0])
    if holder is None or holder not in params:
        return {}
    bound = _walked_name(target, MODULE_WALKS[call[1]], shapes)
    return {} if bound is None else {bound: holder}


def parameter_loop_names(loop, target, params: Iterable[str], shapes: Shapes) -> Dict[str, str]:
    """Loop name -> parameter, for ``for <target> in <loop>`` over a parameter's own tensors: ``for p in
    model.parameters()``, ``for name, p in model.named_parameters()``, ``zip(teacher.parameters(),
    student.parameters())``, and the state dict's (``model.state_dict().items()`` or ``.values()``)."""
    out: Dict[str, str] = {}
    zipped = shapes.function_call(loop)
    elements = shapes.elements(target) if zipped is not None and zipped[0] == "zip" else None
    if elements is not None:
        for element, arg in zip(elements, zipped[1]):
            _bind_parameter_walk(element, arg, params, shapes, out)
    else:
        _bind_parameter_walk(target, loop, params, shapes, out)
    return out


def _bind_parameter_walk(target, expr, params, shapes: Shapes, out: Dict[str, str]) -> None:
    call = shapes.method_call(expr)
    if call is None:
        return
    holder, method, passes_arguments = call
    if method in STATE_DICT_WALKS and not passes_arguments:
        inner = shapes.method_call(holder)
        if inner is not None and inner[1] == "state_dict":
            holder, method = inner[0], STATE_DICT_WALKS[method]
    module = shapes.name(holder)
    if module is None or module not in params or method not in PARAMETER_WALKS:
        return
    bound = _walked_name(target, PARAMETER_WALKS[method], shapes)
    if bound is not None:
        out[bound] = module


def alias_source(value, owner, shapes: Shapes) -> Optional[str]:
    """The name among ``owner`` that ``x = value`` makes ``x`` (maybe) another name for: ``x = token``, or a
    branch of a conditional (``out = h if self.root_weight else torch.zeros_like(h)``)."""
    branches = shapes.branches(value)
    if branches is not None:
        for branch in branches:
            name = shapes.name(branch)
            if name is not None and name in owner:
                return name
        return None
    name = shapes.name(value)
    return name if name is not None and name in owner else None
