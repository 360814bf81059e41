"""The abstract domain: what the analysis knows about a value and about saved tensors.

A *group* names a version counter (one per tensor allocation site; views and ``.detach()`` share
their base's group). A *record* is one op's save of a tensor for backward, identified by
``(site, generation)``: generation 0 is the most recent save at that site, 1 summarises all older
ones (the recency abstraction, so a save in one loop iteration can meet the write of the next).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Dict, FrozenSet, NamedTuple, Optional, Tuple

import libcst as cst

NO, MAYBE, YES = 0, 1, 2

RecordId = Tuple[int, int]  # (site id, generation)

# what a call passes a parameter when it is not one string literal, or what calls that disagree pass
DYNAMIC = object()

# kinds of value
TENSOR = "tensor"  # certainly a tensor
UNKNOWN = "unknown"  # may be a tensor
OTHER = "other"  # certainly not a tensor (number, string, numpy array, None, ...)
CONTAINER = "container"  # list / tuple / dict of values, summarised
MODULE = "module"  # an nn.Module instance
OPTIMIZER = "optimizer"
PARAMS = "params"  # model.parameters()


# Frozen dataclasses the analysis builds by the ten thousand per file (a Val has 17 fields): the __init__
# dataclasses generates sets each field through ``object.__setattr__``, and ``dataclasses.replace`` adds a
# walk over the fields on top. These classes get an __init__ that fills ``__dict__`` in one update, and
# :func:`replace` copies ``__dict__``: the same objects, equality and hash, in about a third of the time.
_QUICK_FIELDS: Dict[type, frozenset] = {}


def _quick_frozen(cls):
    fields = dataclasses.fields(cls)
    assert all(f.default_factory is dataclasses.MISSING and f.init for f in fields), cls
    defaults = {f"_default_{f.name}": f.default for f in fields if f.default is not dataclasses.MISSING}
    params = ", ".join(f.name if f.default is dataclasses.MISSING else f"{f.name}=_default_{f.name}"
                       for f in fields)
    assignments = ", ".join(f"{f.name}={f.name}" for f in fields)
    namespace: Dict[str, object] = {}
    exec(f"def __init__(self, {params}):\n    self.__dict__.update({assignments})\n", defaults, namespace)
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    cls.__init__ = init
    _QUICK_FIELDS[cls] = frozenset(f.name for f in fields)
    return cls


def replace(obj, **changes):
    """``dataclasses.replace``, quick for the classes :func:`_quick_frozen` set up."""
    names = _QUICK_FIELDS.get(type(obj))
    if names is None:
        return dataclasses.replace(obj, **changes)
    if not names.issuperset(changes):
        raise TypeError(f"{type(obj).__name__} has no field {sorted(set(changes) - names)}")
    new = object.__new__(type(obj))
    attributes = new.__dict__
    attributes.update(obj.__dict__)
    attributes.update(changes)
    return new


def join_tri(a: int, b: int) -> int:
    return a if a == b else MAYBE


@_quick_frozen
@dataclass(frozen=True)
class ModuleInfo:
    """An nn.Module value: which torch module (if known), built in place or not, its parameters."""

    qualname: Optional[str]  # "torch.nn.ReLU"; None for user classes and unknown modules
    param_group: str  # the version-counter group of its parameters
    inplace: bool = False
    has_params: bool = True
    site: int = -1  # the constructor call's site id (where a Sequential element is reported)
    label: str = ""  # how the user wrote it: "nn.ReLU(inplace=True)", "self.act"
    sequence: Tuple["ModuleInfo", ...] = ()  # nn.Sequential's elements
    user_class: Optional[str] = None
    frozen: bool = False  # requires_grad_(False): its parameters are leaves that do not require grad
    renormalises: bool = False  # built with max_norm (nn.Embedding): each call first writes its weight
    narrowed: bool = False  # known only from an ``isinstance(m, nn.Tanh)`` test on a module of unknown class
    # one of several modules, one of them nn.Identity (``nn.Conv2d(a, b, 1) if a != b else nn.Identity()``):
    # a call may hand back its input itself
    may_pass_input: bool = False


@dataclass(frozen=True)
class GradOrigin:
    """Why a value may require grad, as a finding states it: the expression the grad comes from (its node,
    or a text) and what that expression is (one of the kinds below)."""

    source: object
    kind: str
    function: str = ""  # the function whose parameter or callers it names
    certain: bool = True  # callers_pass: what they pass certainly requires grad (not only may)
    via: Optional["GradOrigin"] = None  # callers_pass: the origin of what they pass


# What makes a value require grad, by the evidence the analysis read (rendered by rules.report)
PARAMETER = "parameter"  # self.weight, nn.Parameter(...), model.parameters()
MODULE_OUTPUT = "module_output"  # self.fc(x): the output of a module with parameters
MODULE_PARAMETERS = "module_parameters"  # a module's own parameters make its call record a graph
METHOD_INPUT = "method_input"  # forward(self, x): an nn.Module method's input
REQUIRES_GRAD = "requires_grad"  # torch.zeros(3, requires_grad=True), x.requires_grad_()
ANNOTATED = "annotated"  # def f(x: Tensor): a Tensor-annotated parameter may require grad
CALLERS_PASS = "callers_pass"  # what every call of this file's function passes
AUTOGRAD_CALLBACK = "autograd_callback"  # jacobian(func, x): torch calls func with grad tensors
HOOKED_INPUT = "hooked_input"  # a forward hook's module runs on what a network passes it
ASSUMED = "assumed"  # assume-params-are-tensors


@_quick_frozen
@dataclass(frozen=True)
class Val:
    kind: str = UNKNOWN
    grad: int = MAYBE  # requires grad: NO / MAYBE / YES
    groups: FrozenSet[str] = frozenset()
    hist: FrozenSet[RecordId] = frozenset()  # saves in this value's autograd history
    leaf: bool = False  # certainly a leaf that requires grad
    module: Optional[ModuleInfo] = None
    elem_kind: str = UNKNOWN  # containers: the kind of their elements
    fresh: bool = False  # a tensor just created by a factory (requires_grad_() makes it a leaf)
    parts: Optional[Tuple["Val", ...]] = None  # tuples: the values position by position
    keys: Optional[Tuple[str, ...]] = None  # dicts with string keys ({"attn": a, ...}): the key of each part
    params_of: FrozenSet[str] = frozenset()  # optimizers: the parameter groups they update
    strided: bool = False  # a transposed/permuted/expanded view: .contiguous()/.reshape() copy it
    maybe_number: bool = False  # a Python number on some path (n = 1; ... n *= k): "*=" may just rebind
    opaque: bool = False  # returned by a call we cannot see: may be a tuple of distinct tensors
    multiview: bool = False  # an output of split/chunk/unbind (or a view of one): no in-place writes
    multiview_from: Optional[MultiView] = None  # ... the op that made it, when known (for the message)
    callee: Optional[str] = None  # a torch callable held as a value (``act_layer=nn.ReLU``): its qualname
    # ... through ``functools.partial(nn.ReLU, inplace=True)``: that call, whose arguments come first
    bound: Optional[cst.Call] = None
    # a view made under no_grad (or inference_mode) of a tensor that requires grad, or a view of one:
    # torch refuses in-place writes to it with grad mode on
    nograd_view: bool = False
    # a view made under no_grad of a tensor that requires no grad, or a view of one: torch refuses to write
    # into it, with grad mode on, a value that requires grad
    nograd_fill_view: bool = False
    # saves a write through this value cannot clash with: the input a module that may be nn.Identity
    # saved on its other path (on the identity path, this value is that input and nothing saved it)
    spares: FrozenSet[RecordId] = frozenset()
    # why it may require grad (for messages only: never compared, so it never keeps a fixed point moving)
    origin: Optional[GradOrigin] = field(default=None, compare=False)

    @property
    def tensorish(self) -> bool:
        return self.kind in (TENSOR, UNKNOWN)

    def join(self, other: "Val") -> "Val":
        if self == other:
            return self
        kind = self.kind if self.kind == other.kind else UNKNOWN
        maybe_number = self.maybe_number or other.maybe_number or (
            kind == UNKNOWN and OTHER in (self.kind, other.kind))
        return Val(
            kind=kind,
            grad=join_tri(self.grad, other.grad),
            groups=self.groups | other.groups,
            hist=self.hist | other.hist,
            leaf=self.leaf and other.leaf,
            module=_join_modules(self.module, other.module),
            elem_kind=self.elem_kind if self.elem_kind == other.elem_kind else UNKNOWN,
            fresh=self.fresh and other.fresh,
            parts=(
                tuple(a.join(b) for a, b in zip(self.parts, other.parts))
                if self.parts is not None and other.parts is not None and len(self.parts) == len(other.parts)
                and self.keys == other.keys
                else _longer_layer_list(self, other)
            ),
            keys=self.keys if self.keys == other.keys else None,
            params_of=self.params_of | other.params_of,
            strided=self.strided and other.strided,
            maybe_number=maybe_number,
            opaque=self.opaque and other.opaque,
            multiview=self.multiview and other.multiview,
            multiview_from=join_multiview(self.multiview_from, other.multiview_from),
            callee=self.callee if self.callee == other.callee else None,
            # the same callable, bound on one path (partial(nn.ReLU, inplace=True)): keep what can bite
            bound=(self.bound if self.bound is not None else other.bound)
            if self.callee == other.callee else None,
            nograd_view=self.nograd_view and other.nograd_view,
            nograd_fill_view=self.nograd_fill_view and other.nograd_fill_view,
            spares=self.spares & other.spares,
            origin=origin_of((self, other)),
        )

    def item(self, key: str) -> Optional["Val"]:
        """``d["attn"]`` of a dict whose string keys are known, else None."""
        if self.keys is not None and self.parts is not None and key in self.keys:
            return self.parts[self.keys.index(key)]
        return None

    def with_item(self, key: str, value: "Val") -> "Val":
        """This dict after ``d["attn"] = value`` (its string keys known)."""
        keys, parts = list(self.keys or ()), list(self.parts or ())
        if key in keys:
            parts[keys.index(key)] = value
        else:
            keys.append(key)
            parts.append(value)
        return replace(self, keys=tuple(keys), parts=tuple(parts), groups=self.groups | value.groups,
                       hist=self.hist | value.hist)

    def element(self) -> "Val":
        """A value taken out of this container (or iterated out of it)."""
        if self.kind == CONTAINER:
            if self.parts:
                joined = self.parts[0]
                for part in self.parts[1:]:
                    joined = joined.join(part)
                return joined
            # a comprehension of modules keeps the module it builds (semantics.comprehension)
            module = self.module if self.elem_kind == MODULE else None
            return replace(self, kind=self.elem_kind, module=module, elem_kind=UNKNOWN, parts=None, keys=None)
        if self.kind == PARAMS:
            return replace(self, kind=TENSOR, module=None)
        return replace(self, module=None, kind=self.kind if self.tensorish else UNKNOWN)


OTHER_VAL = Val(kind=OTHER, grad=NO)


# MultiView.stage: the op's result (all its outputs), one output, a view of one
OUTPUTS, OUTPUT, VIEW = "outputs", "output", "view"


class MultiView(NamedTuple):
    """Which op made a ``multiview`` value, for AGI003's message: torch names the op's autograd node and the
    output written ("Output 2 of Unbind is a view ...")."""

    qualname: str  # "torch.Tensor.unbind"; "torch.Tensor.__iter__": a tensor iterated or unpacked
    call: Optional[cst.CSTNode]  # the call (or the tensor iterated or unpacked), for its text
    sizes: Optional[bool] = None  # split by a list of sizes (True) or by an int (False); None: not known
    # OUTPUTS: the first output's position (0; -1: not known, ``x.chunk(4)[1:]``); OUTPUT: its position
    output: int = 0
    stage: str = OUTPUTS


def join_multiview(a: Optional[MultiView], b: Optional[MultiView]) -> Optional[MultiView]:
    """The op of a value on either path: one output of the same call whose position differs is one of its
    outputs; anything else is not known."""
    if a == b:
        return a
    if a is None or b is None or a._replace(output=-1) != b._replace(output=-1):
        return None
    return a._replace(output=-1)


class NogradViewReturn(NamedTuple):
    """A function whose every ``return`` hands back a view, made under no_grad, of one of its parameters
    (``@torch.no_grad() def last(h): return h[:, -1]``) or of a tensor reached from it by attributes
    (``model.embed.weight[-n:]``): torch refuses to write it in place with grad on when that tensor requires
    grad, or with a value that does."""

    param: str
    position: int  # the parameter's position among the call's arguments
    attrs: Tuple[str, ...]  # the attributes from the parameter to the viewed tensor
    by_method: bool  # made by a tensor view method (``reshape``): the base is a tensor (a list's slice copies)
    element: Optional[int] = None  # in a returned tuple of ``length``: the view's position
    length: int = 0
    # the tuple's elements that are parameters handed back as they are: (element, parameter, its position);
    # the others were made under no_grad
    handed: Tuple[Tuple[int, str, int], ...] = ()


def _join_modules(a: Optional[ModuleInfo], b: Optional[ModuleInfo]) -> Optional[ModuleInfo]:
    """A module chosen on some path: keep one built in place, since that path can bite."""
    if a == b:
        return a
    if a is not None and a.inplace:
        return a
    if b is not None and b.inplace:
        return b
    if a is None or b is None:
        return a if b is None else b
    return _either_module(a, b)


def _either_module(a: ModuleInfo, b: ModuleInfo) -> ModuleInfo:
    """One of two distinct modules (a ModuleList's elements, ``self.a if c else self.b``), called as one:
    what both agree on is kept; where they differ (two torch classes, two user classes), it is a module we
    cannot see into, which may save its inputs and parameters. Dropping it would lose every save."""
    same_class = a.qualname == b.qualname and a.user_class == b.user_class and a.sequence == b.sequence
    return ModuleInfo(
        qualname=a.qualname if same_class else None,
        param_group=a.param_group,
        has_params=a.has_params or b.has_params,
        site=a.site if a.site == b.site else -1,
        label=a.label if a.label == b.label else "",
        sequence=a.sequence if same_class else (),
        user_class=a.user_class if same_class else None,
        frozen=a.frozen and b.frozen,
        renormalises=a.renormalises or b.renormalises,
        may_pass_input=_passes_input(a) or _passes_input(b),
    )


def _passes_input(module: ModuleInfo) -> bool:
    return module.may_pass_input or (module.qualname == "torch.nn.Identity" and not module.sequence)


@_quick_frozen
@dataclass(frozen=True)
class RecordState:
    groups: FrozenSet[str]  # what was saved
    stale: FrozenSet[int] = frozenset()  # in-place sites that bumped it since
    freed: bool = False  # a backward without retain_graph consumed it
    when: FrozenSet[Tuple[str, bool]] = frozenset()  # the branch flags it was made under (State.flags)

    def join(self, other: "RecordState") -> "RecordState":
        if self == other:
            return self
        return RecordState(self.groups | other.groups, self.stale | other.stale, self.freed and other.freed,
                           self.when & other.when)


@dataclass
class State:
    env: Dict[str, Val] = field(default_factory=dict)
    records: Dict[RecordId, RecordState] = field(default_factory=dict)
    escaped: FrozenSet[RecordId] = frozenset()
    # the flags this path took a branch on (``if in_place:``), as (name, value): a flag the function never
    # rebinds has that value all along the path, so a save made where it was False cannot meet a write
    # made where it is True (a branch never makes a hazard that neither straight-line path has)
    flags: FrozenSet[Tuple[str, bool]] = frozenset()

    def prune(self) -> None:
        """Forget saved tensors that nothing can reach any more: a tensor allocated here and no longer
        held by any name (nor a view, container or attribute of one) can never be written again. This
        keeps a save made on one branch (``x = self.se(x)``) from blaming a later write of the new ``x``
        after the branches join."""
        held = set()
        for val in self.env.values():
            held |= val.groups
        for rid, rec in list(self.records.items()):
            kept = frozenset(g for g in rec.groups if g in held or not _local(g))
            if kept != rec.groups:
                self.records[rid] = RecordState(kept, rec.stale, rec.freed, rec.when)

    def copy(self) -> "State":
        return State(dict(self.env), dict(self.records), self.escaped, self.flags)

    def join(self, other: Optional["State"]) -> "State":
        if other is None:
            return self
        # most values are the very objects both paths inherited: nothing to join for those
        env = dict(self.env)
        for name, val in other.env.items():
            mine = env.get(name)
            if mine is not val:
                env[name] = val if mine is None else mine.join(val)
        records = dict(self.records)
        for rid, rec in other.records.items():
            mine = records.get(rid)
            if mine is not rec:
                records[rid] = rec if mine is None else mine.join(rec)
        return State(env, records, self.escaped | other.escaped, self.flags & other.flags)

    def __eq__(self, other) -> bool:
        return (
            isinstance(other, State)
            and self.env == other.env
            and self.records == other.records
            and self.escaped == other.escaped
            and self.flags == other.flags
        )


def join_states(a: Optional[State], b: Optional[State]) -> Optional[State]:
    if a is None:
        return b
    if b is None:
        return a
    a.prune()
    b.prune()
    return a.join(b)


def loop_settled(head: State, new_head: State) -> bool:
    """Has a loop's state stopped changing? Also when a list of modules only grew (``blocks.append(m)``
    each round): every further round appends what the last one did and changes nothing else, so the lists'
    lengths alone would keep the loop going up to its round limit."""
    if new_head == head:
        return True
    if new_head.records != head.records or new_head.escaped != head.escaped or \
            new_head.env.keys() != head.env.keys():
        return False
    env = head.env
    return all(val is env[name] or val == env[name] or _grown_layer_list(env[name], val)
               for name, val in new_head.env.items())


def _grown_layer_list(old: "Val", new: "Val") -> bool:
    """Is ``new`` the list of modules ``old`` with layers appended, and otherwise the same value?"""
    if old.parts is None or new.parts is None or len(new.parts) <= len(old.parts) or old.keys is not None:
        return False
    return new.parts[:len(old.parts)] == old.parts and all(part.kind == MODULE for part in new.parts) and \
        replace(new, parts=old.parts) == old


def _longer_layer_list(a: "Val", b: "Val") -> Optional[Tuple["Val", ...]]:
    """Two lists of modules, one the other with layers appended on some path (``if act is not None:
    layers.append(nn.ReLU())``): the longer, the path that can bite (``nn.Sequential(*layers)`` then ends in
    what it appended). Any other two lists of different lengths: None (their elements joined)."""
    if a.parts is None or b.parts is None or a.keys is not None or b.keys is not None:
        return None
    short, long = (a.parts, b.parts) if len(a.parts) < len(b.parts) else (b.parts, a.parts)
    if not all(part.kind == MODULE for part in long) or long[:len(short)] != short:
        return None
    return long


def _local(group: str) -> bool:
    return group.startswith("t")  # allocated in this function; others (params, attributes) live on


# An argument-save summary's condition (ctx.argument_saves): the parameters of which one must require grad
# at the call for the save to happen; None: any argument; ALWAYS_SAVED: whatever the caller passes (a
# tensor that surely requires grad, a module's parameter, made the save)
# Evidence that a value requires grad, rather than that it may (an nn.Module method's input, a Tensor
# annotation, an assumption): preferred when several inputs carry grad
_EVIDENCE = frozenset({PARAMETER, MODULE_OUTPUT, MODULE_PARAMETERS, REQUIRES_GRAD, AUTOGRAD_CALLBACK})


def origin_of(vals) -> Optional[GradOrigin]:
    """The origin of the one of ``vals`` that most surely requires grad: certainly and by evidence first."""
    best, best_rank = None, -1
    for val in vals:
        origin = val.origin
        if origin is None or val.grad == NO:
            continue
        rank = 2 * (val.grad == YES) + (origin.kind in _EVIDENCE or (origin.kind == CALLERS_PASS and origin.certain))
        if rank > best_rank:
            best, best_rank = origin, rank
            if rank == 3:
                break
    return best


ALWAYS_SAVED = frozenset({"*"})


def join_conditions(a: Optional[FrozenSet[str]], b: Optional[FrozenSet[str]]) -> Optional[FrozenSet[str]]:
    """The condition of a parameter two saves keep: the weaker of the two."""
    if (a is not None and ALWAYS_SAVED <= a) or (b is not None and ALWAYS_SAVED <= b):
        return ALWAYS_SAVED
    if a is None or b is None:
        return None
    return a | b


@dataclass(frozen=True)
class SaveSite:
    """Static facts about one saving op, for messages (texts may be nodes, rendered only when needed)."""

    site: int
    op_text: object  # "b *= b", "torch.exp(x)", or the node
    qualname: str
    saved_text: object  # the saved tensor as written, or its node
    role: str  # "input" / "result"
    argument: str  # parameter name of the saving op ("other"), or "result"
    origin: Optional[GradOrigin] = field(default=None, compare=False)  # why the op records a graph


@dataclass(frozen=True)
class WriteSite:
    """Static facts about one in-place write, for messages and fixes."""

    site: int
    node: cst.CSTNode  # what the finding's range covers
    form: str  # see ftypes.InplaceSite
    op_text: str  # "*=", "add_()", "[...] =", "inplace=True"
    target_text: str
    kwarg_node: Optional[cst.CSTNode] = None
    target_is_local_name: bool = False
    target_node: Optional[cst.CSTNode] = None
