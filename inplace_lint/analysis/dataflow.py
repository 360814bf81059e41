"""Flow-sensitive abstract interpretation of one function body (or the module's top level).

Walks LibCST statements in order, keeping a :class:`State` per program point: branches join, loops
iterate to a fixed point (bounded), ``return``/``raise`` end a path. Every op the knowledge table
says saves a tensor creates a *record*; every in-place write bumps the version-counter groups of its
target and marks the records that saved them stale; a backward (or a value leaving the function:
returned, stored, yielded) that reaches a stale record yields a finding at the write.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Dict, FrozenSet, Iterable, List, NamedTuple, Optional, Set, Tuple

import libcst as cst

from inplace_lint.analysis import semantics as sem
from inplace_lint.syntax.names import AUG_SYMBOLS, ImportMap, dotted, walk
from inplace_lint.analysis.values import (
    ALWAYS_SAVED,
    DYNAMIC,
    CONTAINER,
    MAYBE,
    MODULE,
    NO,
    OTHER,
    OTHER_VAL,
    OUTPUT,
    PARAMS,
    TENSOR,
    UNKNOWN,
    YES,
    ASSUMED,
    REQUIRES_GRAD,
    GradOrigin,
    ModuleInfo,
    MultiView,
    RecordId,
    RecordState,
    SaveSite,
    State,
    Val,
    WriteSite,
    join_conditions,
    join_multiview,
    join_states,
    loop_settled,
    origin_of,
    replace,
)
from inplace_lint.knowledge import (
    MODULE_PARAMS, TRANSPOSING_ATTRIBUTES, VIEW_METHODS, InplaceForm, Knowledge, Save,
)
from inplace_lint.model import debug
from inplace_lint.model.events import LeafWrite, MultiViewWrite, NogradViewWrite, StaleSave
from inplace_lint.model.findings import AnalysisTooLarge
from inplace_lint.model.records import Record, factory

MAX_LOOP_ROUNDS = 6
# Statements one unit may interpret before loops stop iterating to a fixed point (nested loops multiply
# rounds): keeps the worst case linear in the unit's size instead of exponential in its nesting.
STEP_BUDGET = 20_000

# LibCST's node classes are final and their ABC isinstance checks slow: the interpreter's dispatch
# compares exact types, and this is every small-statement class the parser builds
# (gathered through __subclasses__: an ABC issubclass check of each of LibCST's names costs 15 ms a process)
def _subclasses(kind: type) -> frozenset:
    found = {kind}
    todo = [kind]
    while todo:
        for sub in todo.pop().__subclasses__():
            if sub not in found:
                found.add(sub)
                todo.append(sub)
    return frozenset(found)


_SMALL_STATEMENTS = _subclasses(cst.BaseSmallStatement)


# The bookkeeping of an in-place write visits every live record and name of its function: linear per write,
# so quadratic in one function's length. A fuse, far past real code (the most any file of this repository's
# fixtures or of torch.nn costs is 180), so that an adversarial function (thousands of saved tensors, each
# written) costs seconds, never minutes: 4,000,000 is about 2 CPU-s here.
ANALYSIS_BUDGET = 4_000_000


class WriteNotes(Record):
    """What the analyses of one in-place write noted about it, joined over every pass and caller."""

    shared: Optional[bool] = None  # may the target be seen elsewhere (None: never noted, taken as yes)
    holders: Optional[frozenset] = frozenset()  # the other local names seeing it (None: not only locals)
    base_text: Optional[str] = None  # the local name the target is a view of (h of h[2:]) ...
    base_shared: bool = False  # ... and whether that name's tensor may be seen elsewhere
    # A private helper's write to its parameter (``def _scale(self, t): t.mul_(2)``): is what every call
    # passes invisible to its caller afterwards (a temporary, or a name the call rebinds), and is the
    # parameter the only name inside the helper that sees it? Then rebinding it there is safe.
    private_args: Optional[bool] = None
    private_in_helper: Optional[bool] = None
    helper: Optional[str] = None  # the helper the write is in
    hook: Optional[str] = None  # the forward hook whose write to its output this is
    outside_calls: list = factory(list)  # a method's write to its module's tensors: the calls from outside


@dataclass
class Hazard:
    kind: type  # the event the rules see it as (inplace_lint.model.events): StaleSave, LeafWrite, ...
    write: WriteSite
    save: Optional[SaveSite] = None
    unit: object = None  # the function whose analysis found it
    fill: bool = False  # a multi-view or no_grad-view write filling a tensor of no grad with one of grad
    # a multi-view write: the op that made the views (joined over every analysis) and the other local
    # names holding outputs of the same call
    multiview: Optional[MultiView] = None
    siblings: FrozenSet[str] = frozenset()
    grad_origin: Optional[GradOrigin] = None  # why the tensor written (or, for a fill, written in) requires grad
    # what reaches the stale save: ("backward", the call's node) or ("return", the return's node)
    reached_by: Optional[Tuple[str, object]] = None


def _runs_at_least_once(iterable) -> bool:
    """``range(3)``, ``range(1, 4)``, ``[a, b]``: a loop over it runs its body at least once."""
    if type(iterable) in (cst.List, cst.Tuple):
        return any(not type(e) is cst.StarredElement for e in iterable.elements)
    if not (type(iterable) is cst.Call and type(iterable.func) is cst.Name
            and iterable.func.value == "range" and 1 <= len(iterable.args) <= 2
            and all(a.keyword is None and not a.star for a in iterable.args)):
        return False
    bounds = []
    for arg in iterable.args:
        if not type(arg.value) is cst.Integer:
            return False
        bounds.append(int(arg.value.value.replace("_", ""), 0))
    return bounds[-1] > (bounds[0] if len(bounds) == 2 else 0)


class Unit:
    """Everything shared while analysing one function body."""

    def __init__(self, ctx: "ModuleContext", imports: ImportMap, nograd: bool = False, self_name: str = "",
                 class_name: Optional[str] = None):
        self.ctx = ctx
        self.imports = imports
        self.nograd_depth = 1 if nograd else 0
        self.hooks_depth = 0  # saved_tensors_hooks / save_on_cpu silence the version check
        self.self_name = self_name
        self.class_name = class_name
        self.function_name = ""
        self.params: frozenset = frozenset()  # its parameter names (self excluded)
        self.param_order: Tuple[str, ...] = ()  # ... in order
        # its parameters are taken for tensors that may require grad without what a caller passes: a
        # method of an nn.Module (what ``forward`` gets), or any function under assume-params-are-tensors
        self.param_grad_origin: Optional[str] = ASSUMED  # ... why (a values.GradOrigin kind); None: no
        self.params_from_callers = False  # ... or they are what every call of it in the file passes
        # ... the parameters taken for values that require no grad for want of evidence (not declared a
        # Tensor or a non-tensor): a result that requires no grad says so only of calls passing such there
        self.params_without_evidence: Set[str] = set()
        # the names and ``self.x`` attributes the function binds anywhere (None at the top level: every
        # name may be rebound by code we cannot see): its other names are flags a branch may keep
        self.rebound: object = _EVERY_NAME
        # parameters True by default that no call in the file passes (nn.ReLU(inplace=inplace))
        self.true_defaults: frozenset = frozenset()
        # parameters every call passes the same string literal (refined by call sites): ``if`` tests on
        # them are decided (``scatter(..., reduce='sum')`` runs the sum branch only)
        self.constant_params: Dict[str, object] = {}
        self.summary_key: Optional[Tuple[Optional[str], str]] = None  # (class, function) for return summaries
        self.returns_escape = True  # False for post-processing/inference functions (see naming.py)
        self.loop_stack: List[Tuple[List[State], List[State]]] = []  # (continue states, break states)
        self.returns: Optional[State] = None
        self.steps = 0

    @property
    def nograd(self) -> bool:
        return self.nograd_depth > 0

    @property
    def params_may_require_grad(self) -> bool:
        return self.param_grad_origin is not None


class _EveryName:
    def __contains__(self, name) -> bool:
        return True


_EVERY_NAME = _EveryName()


class FunctionEntry(NamedTuple):
    """How a function was last analysed: the how-manieth analysis of it, under no_grad or not, with its
    parameters refined by what callers pass or not, and each parameter's declared value."""

    analyses: int
    nograd: bool
    refined: bool
    parameters: Dict[str, Val]


class LazyWrites:
    """key -> (parameter names, {param: writes}) of the helpers that write a parameter in place, worked out
    on first lookup: walking every function of a file for it cost a fifth of the analysis, and only the
    helpers something calls are ever looked up."""

    def __init__(self) -> None:
        self._candidates: Dict[object, list] = {}  # key -> [compute(), ...] in definition order
        self._known: Dict[object, Optional[tuple]] = {}

    def add(self, key, compute) -> None:
        """``compute()`` gives (params, writes) or None; of several definitions, the last that writes wins."""
        self._candidates.setdefault(key, []).append(compute)
        self._known.pop(key, None)

    def get(self, key, default=None):
        if key not in self._known:
            found = None
            self._known[key] = None  # a helper that (indirectly) calls itself: no writes through that call
            for compute in self._candidates.get(key, ()):
                entry = compute()
                if entry is not None:
                    found = entry
            self._known[key] = found
        found = self._known[key]
        return default if found is None else found

    def __contains__(self, key) -> bool:
        return self.get(key) is not None

    def __getitem__(self, key):
        found = self.get(key)
        if found is None:
            raise KeyError(key)
        return found


class ModuleContext:
    """Per-file state: knowledge, positions, site numbering and the collected hazards."""

    def __init__(self, knowledge: Knowledge, module: cst.Module, assume_params_are_tensors: bool = True,
                 source_of: Optional[Callable[[cst.CSTNode], Optional[str]]] = None):
        self.k = knowledge
        self.module = module
        self.work = 0  # records and names visited by in-place writes (see ANALYSIS_BUDGET)
        self.calls_and_mentions = None  # (calls by callee, mentions by name): analysis._calls_and_mentions
        self.true_defaults: Dict[cst.CSTNode, frozenset] = {}  # function -> analysis._true_defaults
        # the source text of a node, for a tree without formatting to print it from (cst_from_ast's)
        self.source_of = source_of
        self.assume_params_are_tensors = assume_params_are_tensors
        self._site_ids: Dict[int, int] = {}
        self.sequence_call: Optional[int] = None  # id of the nn.Sequential call being applied (site)
        self._code_cache: Dict[Tuple[int, int], str] = {}
        self.site_nodes: Dict[int, cst.CSTNode] = {}
        self.save_sites: Dict[Tuple[int, str], SaveSite] = {}
        self.save_by_site: Dict[int, SaveSite] = {}  # the first save recorded at each site
        self.write_sites: Dict[int, WriteSite] = {}
        self.hazards: Dict[Tuple[type, int, Optional[int]], Hazard] = {}
        self.class_attrs: Dict[str, Dict[str, Val]] = {}  # class name -> self.<attr> values from __init__
        self.user_modules: Set[str] = set()  # classes deriving from nn.Module in this file
        self.forward_classes: Set[str] = set()  # classes of this file defining ``forward``
        # the functions analysed with their parameters taken for tensors that may require grad
        self.grad_param_units: Set[cst.FunctionDef] = set()
        # function -> its parameters used as Python lists or dicts (parameters.container_parameters)
        self.container_parameters: Dict[cst.FunctionDef, FrozenSet[str]] = {}
        # ... and those its docstring declares no tensor (syntax.docstrings.declared_non_tensors)
        self.docstring_scalars: Dict[cst.FunctionDef, FrozenSet[str]] = {}
        self.rebound_names: Dict[cst.FunctionDef, FrozenSet[str]] = {}  # function -> Unit.rebound
        # function -> (what its callers pass, under no_grad) it was last refined with
        self.refined_args: Dict[cst.FunctionDef, tuple] = {}
        # other classes of this file, not callable (no __call__/forward), by their methods' names: an
        # instance's method that writes what it is passed (``scaler.scale_loss(loss)``) writes the caller's
        self.plain_classes: Dict[str, Tuple[str, ...]] = {}
        self.autograd_functions: Dict[str, "sem.FunctionSummary"] = {}
        self.module_inplace_args: Dict[int, Tuple[cst.CSTNode, cst.Arg]] = {}  # ctor site -> inplace=True arg
        # ``m.inplace = True`` on modules after they were built (``for m in self.modules(): if isinstance(m,
        # nn.Dropout): m.inplace = True``): the flip (inplace_lint.analysis.InplaceFlip), or None
        self.inplace_flip = None
        # class -> the self attributes its __init__ builds as in-place modules (analysis._inplace_attributes)
        self.inplace_attributes: Dict[cst.ClassDef, Dict[str, object]] = {}
        self._bound_calls: Dict[Tuple[int, int], cst.Call] = {}  # (call, partial) -> the merged call
        self.module_given_args: Dict[int, cst.Arg] = {}  # ctor site -> its max_norm=<number> argument
        self.globals: Dict[str, Val] = {}  # module-level names, as functions see them
        self.user_functions: Set[str] = set()
        # user functions (and module classes with one __init__) only ever mentioned as callees
        self.directly_called: Optional[Set[str]] = None
        self.top_level_functions: Set[cst.FunctionDef] = set()
        # helper functions that write a parameter in place: name -> (parameter names, {param: writes})
        self.function_writes: LazyWrites = LazyWrites()
        self.function_params: Dict[str, List[str]] = {}  # module-level function -> parameter names
        self.nograd_functions: Set[str] = set()  # module-level functions decorated @torch.no_grad()
        # this file's decorators that run what they decorate under no_grad (``@smart_inference_mode()``)
        self.grad_off_decorators: FrozenSet[str] = frozenset()
        self.user_classes: Set[str] = set()
        # (class, method) -> (parameters after self, writes): ``self._scale(h)`` with ``t.mul_(2)`` inside
        self.method_writes: LazyWrites = LazyWrites()
        # (class or None, function) -> (parameter, index): it returns a view of that parameter made under
        # no_grad (``@torch.no_grad() def last(h): return h[:, -1]``)
        self.nograd_view_returns: LazyWrites = LazyWrites()
        # module-level functions that pick what they return by a string parameter (DETR's
        # ``_get_activation_fn(activation)``): name -> (parameter, {string: returned expression})
        self.string_dispatch: LazyWrites = LazyWrites()
        # (class, method) -> the view every return of the method hands back, when torch refuses writes to
        # it: one made under no_grad of a ``self`` tensor (``with torch.no_grad(): s = self.mem[self.ptr]``
        # ... ``return s``), or outputs of split/chunk/unbind (``return self.head(x).split(sizes, -1)``)
        self.views_returned: Dict[Tuple[str, str], Optional[Val]] = {}
        # function -> the parameter every return of it hands back itself or as a view sharing its version
        # counter (``return t.reshape(-1, d)``, ``return t.to(torch.float32)``); None: not every return does
        self.alias_returns: Dict[Tuple[Optional[str], str], Optional[str]] = {}
        # function -> whether every value it returns requires no grad whatever it is passed (made under
        # no_grad, or from nothing that requires grad): its callers' results then carry none
        self.nograd_returns: Dict[Tuple[Optional[str], str], bool] = {}
        # ... when the arguments for these parameters require no grad (those it took for values that do not,
        # for want of evidence: a plain function's, analysed without callers' values)
        self.nograd_returns_of_nograd_args: Dict[Tuple[Optional[str], str], Optional[FrozenSet[str]]] = {}
        # nested function -> the enclosing function's names where it is defined (joined over the passes of a
        # loop; set afresh each time the enclosing function is analysed): what its free names hold
        # (``input_img`` in an LBFGS closure). Values only: the enclosing function's saves are its own, so
        # only facts about the tensors themselves (a leaf, a no_grad view) carry over
        self.closure_envs: Dict[cst.FunctionDef, Dict[str, Val]] = {}
        self.closure_owner: Dict[cst.FunctionDef, object] = {}  # nested function -> the function defining it
        self.autograd_functions_all: Set[str] = set()  # every custom autograd.Function class
        self.param_labels: Dict[str, str] = {}  # parameter group -> the name its module is bound to
        # write site -> what every analysis of that write noted about it (the facts its event carries)
        self.write_notes: Dict[int, WriteNotes] = {}
        self.torch_layer_subclasses: Dict[str, str] = {}  # class L(nn.Linear) -> "torch.nn.Linear"
        self.optimizer_classes: Set[str] = set()  # class MySGD(torch.optim.Optimizer), and their subclasses
        self.helper_call_nodes: Dict[str, Set[int]] = {}  # helper name -> the calls of it analysed
        self.current_unit: object = None
        self.call_args: Dict[str, Dict[str, Val]] = {}  # function -> parameter values joined over its calls
        # function -> parameter -> the string every call passes it (None: a call passes it nothing,
        # DYNAMIC: something else, or calls disagree)
        self.call_constants: Dict[str, Dict[str, object]] = {}
        # module classes of this file with one __init__: its parameters (self aside), and what the calls
        # building the class pass them, joined (``GatedConv(3, 4, act_layer=partial(nn.ReLU, inplace=True))``)
        self.init_params: Dict[str, List[str]] = {}
        self.constructor_args: Dict[str, Dict[str, Val]] = {}
        self.opaque_constructors: Set[str] = set()
        self.opaque_functions: Set[str] = set()  # functions called with *args/**kwargs or passed around
        # Calls between this file's functions: (caller, callee, made under no_grad), keys (class or None, name).
        self.call_edges: Set[Tuple[Tuple[Optional[str], str], Tuple[Optional[str], str], bool]] = set()
        # (class or None, function) -> it returns a tensor that one of its own ops saved for backward
        self.return_summaries: Dict[Tuple[Optional[str], str], bool] = {}
        self.return_elements: Dict[Tuple[Optional[str], str], bool] = {}  # ... a list of such tensors
        # ... and for a function returning a tuple (``return self.pi(h), h``): which of its elements
        self.return_parts: Dict[Tuple[Optional[str], str], Tuple[bool, ...]] = {}
        self.return_keys: Dict[Tuple[Optional[str], str], Optional[Tuple[str, ...]]] = {}  # ... of a dict
        # (class, method) -> what it returns was computed by ops that saved these parameter groups of the
        # module (``logits = F.linear(h, self.emb.weight)``): the caller's result holds those saves
        self.param_save_returns: Dict[Tuple[Optional[str], str], FrozenSet[str]] = {}
        self.param_save_asked: Set[Tuple[Optional[str], str]] = set()  # read before any was known
        # ... and the operands those ops saved (``self.emb.weight``), where a fix can hand them a copy
        self.param_save_operands: Dict[Tuple[Optional[str], str], Set[cst.CSTNode]] = {}
        self.param_save_origin: Dict[int, Tuple[Optional[str], str]] = {}  # caller's save site -> the method
        # (class or None, function) -> the parameters its returned value's ops saved (``def score(q, k):
        # return q @ k.transpose(-1, -2)``), each with the parameters whose requiring grad made the save
        # (None: not only parameters): a call saves what its caller passed for them
        self.argument_saves: Dict[Tuple[Optional[str], str], Dict[str, Optional[FrozenSet[str]]]] = {}
        self.argument_save_asked: Set[Tuple[Optional[str], str]] = set()  # read before any was known
        # (class or None, function) -> the module it builds and returns on every path (``def conv_bn_relu():
        # return nn.Sequential(..., nn.ReLU(inplace=True))``), None when some path returns something else
        self.returned_modules: Dict[Tuple[Optional[str], str], Optional[Val]] = {}
        self.argument_params: Dict[Tuple[Optional[str], str], List[str]] = {}  # ... its parameters, in order
        self.argument_save_ops: Dict[Tuple[Tuple[Optional[str], str], str], object] = {}  # ... the saving op
        self.argument_save_sites: Dict[int, object] = {}  # a call's save site -> the saving op inside it
        # save site -> the groups of the tensors whose requiring grad made that save (torch's "when")
        self.save_triggers: Dict[int, FrozenSet[str]] = {}
        self.renormalising_classes: Set[str] = set()  # classes holding a max_norm embedding (self.emb)
        self.allocated_groups: Set[str] = set()  # every group new_group handed out, in any unit or pass
        # What each unit's analysis read of what other units' analyses produce (summaries, __init__'s
        # attributes, a closure's names): unit (function node, None for the top level) -> {what: as read}.
        # A unit is analysed again only when one of them changed since (interpret_module).
        self.reads: Dict[object, Dict[tuple, object]] = {}
        self.hazard_units: Dict[tuple, List[object]] = {}  # hazard key -> the units that reported it
        self.function_entries: Dict[cst.FunctionDef, FunctionEntry] = {}
        self.file_runs_backward = False  # the file's whole text runs a backward somewhere

    # -- what a unit read of other units' results ----------------------------------------------------------
    def summary_of(self, key) -> tuple:
        saves = self.argument_saves.get(key)
        return (self.return_summaries.get(key), self.return_elements.get(key), self.return_parts.get(key),
                self.return_keys.get(key), self.param_save_returns.get(key), self.views_returned.get(key),
                None if saves is None else tuple(sorted(saves.items())), self.returned_modules.get(key),
                self.alias_returns.get(key), self.nograd_returns.get(key),
                self.nograd_returns_of_nograd_args.get(key))

    def _result_of(self, kind: str, key):
        """What other units' analyses have concluded so far: a function's summaries, a class's ``__init__``
        attributes, or a closure's names."""
        if kind == "summary":
            return self.summary_of(key)
        return (self.class_attrs if kind == "attributes" else self.closure_envs).get(key, {})

    def _read(self, kind: str, key):
        """The current unit reads ``_result_of(kind, key)``; its first read is what it saw."""
        found = self._result_of(kind, key)
        self.reads.setdefault(self.current_unit, {}).setdefault((kind, key), found)
        return found

    def read_summary(self, key) -> None:
        """The current unit reads what analysing function ``key`` (class or None, name) concluded."""
        self._read("summary", key)

    def top_level_function(self, name: str) -> Optional[cst.FunctionDef]:
        """The module-level function ``name`` of this file, if any."""
        return next((f for f in self.top_level_functions if f.name.value == name), None)

    def read_attributes(self, class_name: Optional[str]) -> Dict[str, Val]:
        """The ``self.<attr>`` values the analysis of ``class_name``'s ``__init__`` left (or none yet)."""
        return self._read("attributes", class_name or "")

    def read_closure(self, function) -> Dict[str, Val]:
        return self._read("closure", function)

    def reads_changed(self, unit) -> bool:
        """Has anything ``unit``'s last analysis read of other units' results changed since?"""
        seen = self.reads.get(unit, {})
        return any(self._result_of(kind, key) != then for (kind, key), then in seen.items())

    def notes_of(self, site: int) -> "WriteNotes":
        notes = self.write_notes.get(site)
        if notes is None:
            notes = self.write_notes[site] = WriteNotes()
        return notes

    def note_base(self, site: int, base: str, shared: bool) -> None:
        notes = self.notes_of(site)
        notes.base_text, notes.base_shared = base, shared or notes.base_shared

    @property
    def helper_calls(self) -> Dict[str, int]:
        return {name: len(calls) for name, calls in self.helper_call_nodes.items()}

    def note_private_arg(self, site: int, private: bool) -> None:
        notes = self.notes_of(site)
        notes.private_args = (notes.private_args is None or notes.private_args) and private

    def note_sharing(self, site: int, shared: bool, holders: Optional[frozenset] = frozenset()) -> None:
        notes = self.notes_of(site)
        notes.shared = bool(notes.shared) or shared
        # None: seen outside the local names, so no list of holders can make it safe
        old = notes.holders
        notes.holders = None if old is None or holders is None else old | holders

    # -- sites -------------------------------------------------------------------------------------
    def class_statement(self, name: Optional[str]) -> Optional[cst.ClassDef]:
        """The module-level ``class name:`` statement, if any (when redefined, the last: Python binds it)."""
        classes = (s for s in reversed(self.module.body) if type(s) is cst.ClassDef and s.name.value == name)
        return next(classes, None)

    def site(self, node: cst.CSTNode, salt: str = "") -> int:
        key = id(node) if not salt else hash((id(node), salt))
        if self.sequence_call is not None:
            # an element of nn.Sequential is reported at its constructor, but each call of the sequence
            # is a save of its own: D(real) and D(fake) must not share (and merge) their records
            key = hash((key, self.sequence_call))
        sid = self._site_ids.get(key)
        if sid is None:
            sid = len(self._site_ids) + 1
            self._site_ids[key] = sid
            self.site_nodes[sid] = node
        return sid

    def bound_call(self, call: cst.Call, partial: cst.Call) -> cst.Call:
        """``call`` of ``partial(f, *args, **keywords)``: ``f(*args, *call's, **keywords | call's)``, built
        once per pair (sites are keyed by node: every evaluation must see the same one)."""
        key = (id(call), id(partial))
        merged = self._bound_calls.get(key)
        if merged is None:
            given = {a.keyword.value for a in call.args if a.keyword is not None}
            bound = partial.args[1:]
            args = [a for a in bound if a.keyword is None] + [a for a in call.args if a.keyword is None]
            args += [a for a in bound if a.keyword is not None and a.keyword.value not in given]
            args += [a for a in call.args if a.keyword is not None]
            merged = self._bound_calls[key] = cst.Call(func=call.func, args=tuple(args))
        return merged

    def code(self, node, limit: int = 60) -> str:
        """The source of ``node`` on one line, shortened; a string is returned as it is."""
        if node is None:
            return ""
        if isinstance(node, str):
            return node
        key = (id(node), limit)
        text = self._code_cache.get(key)
        if text is None:
            try:
                code = self.source_of(node) if self.source_of is not None else None
                if code is None:
                    code = self.module.code_for_node(node)
                text = " ".join(code.split())
            except Exception:
                text = "?"
            text = text if len(text) <= limit else text[: limit - 3] + "..."
            self._code_cache[key] = text
        return text

    def report(self, kind: type, write: WriteSite, save: Optional[SaveSite], fill: bool = False,
               multiview: Optional[Tuple[Optional[MultiView], frozenset]] = None,
               grad_origin: Optional[GradOrigin] = None, reached_by=None) -> None:
        """``multiview``: a multi-view write's (op that made the views, the names of its other outputs);
        ``grad_origin``: why the tensor written requires grad (for a fill, the tensor written in)."""
        key = (kind, write.site, save.site if save else None)
        hazard = self.hazards.get(key)
        if hazard is None:
            hazard = self.hazards[key] = Hazard(kind, write, save, self.current_unit, fill, grad_origin=grad_origin,
                                                reached_by=reached_by)
            if multiview is not None:
                hazard.multiview, hazard.siblings = multiview
        else:
            if hazard.grad_origin is None:
                hazard.grad_origin = grad_origin
            if reached_by is not None and (hazard.reached_by is None or hazard.reached_by[0] == "return"):
                hazard.reached_by = reached_by  # a backward call says more than a return
            if fill:  # a fill in any analysis of the write makes it one
                hazard.fill = True
            if multiview is not None:
                hazard.multiview = join_multiview(hazard.multiview, multiview[0])
                hazard.siblings |= multiview[1]
        units = self.hazard_units.setdefault(key, [])  # a helper's write: every caller reports it
        if not any(unit is self.current_unit for unit in units):
            units.append(self.current_unit)

    def note_edge(self, unit: "Unit", callee: Tuple[Optional[str], str]) -> None:
        self.call_edges.add(((unit.class_name, unit.function_name), callee, unit.nograd))

    def nograd_callees(self) -> Set[Tuple[Optional[str], str]]:
        """Functions and methods every in-file call of which runs under no_grad, directly or through
        callers that themselves only run under no_grad (generate -> _decode -> helper)."""
        callers: Dict[Tuple[Optional[str], str], list] = {}
        for caller, callee, nograd in self.call_edges:
            callers.setdefault(callee, []).append((caller, nograd))
        result: Set[Tuple[Optional[str], str]] = set()
        changed = True
        while changed:
            changed = False
            for callee, edges in callers.items():
                if callee not in result and all(nograd or caller in result for caller, nograd in edges):
                    result.add(callee)
                    changed = True
        return result

    def note_construction(self, class_name: str, args: Dict[str, "Val"], clean: bool) -> None:
        """A call building a module class of this file: its ``__init__`` parameters' values there."""
        if not clean:
            self.opaque_constructors.add(class_name)
            return
        # only a callable passed refines (``act_layer=partial(nn.ReLU, inplace=True)``; inplace_lint.syntax.select
        # keeps every part naming such a class, so that the calls joined are the same in a reduced text)
        joined = self.constructor_args.setdefault(class_name, {})
        for param, val in args.items():
            if val.callee is not None:
                joined[param] = val if param not in joined else joined[param].join(val)

    def note_call(self, name: str, args: Dict[str, "Val"], clean: bool, nograd: bool,
                  constants: Optional[Dict[str, object]] = None) -> None:
        """A call of a function of this file: its parameters' values at this call site, and the string
        literal it passes each (``constants``: parameter -> the string, None when not passed, DYNAMIC)."""
        if not clean:
            self.opaque_functions.add(name)
            return
        joined = self.call_args.setdefault(name, {})
        for param, val in args.items():
            joined[param] = val if param not in joined else joined[param].join(val)
        if constants is not None and not nograd:
            # a call under no_grad records no graph: the constants that decide which branches record one are
            # those of the calls with grad on
            known = self.call_constants.setdefault(name, {})
            for param, value in constants.items():  # a parameter left out says nothing (a recursive call)
                known[param] = value if known.get(param, value) == value else DYNAMIC


class Interpreter:
    def __init__(self, ctx: ModuleContext, unit: Unit):
        self.ctx = ctx
        self.k = ctx.k
        self.unit = unit
        # every (record, its new name) create_record renamed, in order: a value evaluated before a later
        # operand made a new save at the same site (``loss + (acc ** 2).sum()`` in a loop) still names
        # the older save by its old name; catch_up renames it too
        self.renamed: List[Tuple[RecordId, RecordId]] = []

    # =========================================================================== records & writes
    def spend(self, work: int) -> None:
        ctx = self.ctx
        ctx.work += work
        if ctx.work > ANALYSIS_BUDGET:
            where = f"function {self.unit.function_name!r}" if self.unit.function_name else "module"
            raise AnalysisTooLarge(f"{where} is too large to analyse: its in-place writes would take more "
                                   f"than {ANALYSIS_BUDGET:,} steps of bookkeeping")

    def new_group(self, state: State, node: cst.CSTNode, salt: str = "") -> str:
        """A fresh tensor allocated at ``node``. Tensors allocated there before (earlier loop
        iterations) are different tensors: they move to the site's older group, so a write to the new
        one does not count as a write to them (the recency abstraction, as for records)."""
        group = f"t{self.ctx.site(node, salt)}"
        allocated = self.ctx.allocated_groups
        if group not in allocated:  # the site's first tensor: no value or record can hold an older one
            allocated.add(group)
            return group
        older = group + "'"
        for name, val in list(state.env.items()):
            if group in val.groups:
                state.env[name] = replace(val, groups=(val.groups - {group}) | {older})
        for rid, rec in list(state.records.items()):
            if group in rec.groups:
                state.records[rid] = replace(rec, groups=(rec.groups - {group}) | {older})
        return group

    def allocated_at(self, node: cst.CSTNode, val: Val) -> bool:
        """Is ``val`` exactly the tensor :meth:`new_group` allocated last at ``node`` (and nothing else)?"""
        return val.groups == frozenset({f"t{self.ctx.site(node)}"})

    def create_record(self, state: State, sid: int, save: SaveSite, groups: frozenset) -> RecordId:
        """Record a save at site ``sid``; the previous save there becomes the older generation."""
        rid = (sid, 0)
        old = (sid, 1)
        if rid in state.records:
            previous = state.records.pop(rid)
            state.records[old] = previous if old not in state.records else state.records[old].join(previous)
            self._rename(state, rid, old)
            self.renamed.append((rid, old))
        state.records[rid] = RecordState(frozenset(groups), when=state.flags)
        self.ctx.save_sites[(sid, save.argument)] = save
        self.ctx.save_by_site.setdefault(sid, save)
        return rid

    def catch_up(self, val: Val, mark: int) -> Val:
        """``val`` (evaluated when ``len(self.renamed)`` was ``mark``) with the renames made since."""
        if mark >= len(self.renamed) or not val.hist:
            return val
        hist = val.hist
        for rid, new in self.renamed[mark:]:
            if rid in hist:
                hist = (hist - {rid}) | {new}
        return val if hist is val.hist else replace(val, hist=hist)

    @staticmethod
    def _rename(state: State, rid: RecordId, new: RecordId) -> None:
        for name, val in list(state.env.items()):
            if rid in val.hist:
                state.env[name] = replace(val, hist=(val.hist - {rid}) | {new})
        if rid in state.escaped:
            state.escaped = (state.escaped - {rid}) | {new}

    def bump(self, state: State, groups: Iterable[str], write: WriteSite,
             spared: FrozenSet[RecordId] = frozenset()) -> None:
        """An in-place write to ``groups``: every live record saving one of them goes stale."""
        groups = frozenset(groups)
        if not groups:
            return
        self.spend(len(state.records))
        wildcard = "params:*" in groups
        tokens = [g[len("params~"):] for g in groups if g.startswith("params~")]
        flags = state.flags
        for rid, rec in list(state.records.items()):
            if rec.freed or rid in spared or (rec.when and _contradicts(rec.when, flags)):
                continue
            hit = rec.groups & groups or (wildcard and any(g.startswith("params") for g in rec.groups))
            if not hit and tokens:
                hit = any(self._param_group_matches(g, t) for g in rec.groups for t in tokens)
            if not hit:
                continue
            state.records[rid] = replace(rec, stale=rec.stale | {write.site})
            self.ctx.write_sites[write.site] = write
            if rid in state.escaped:
                self._report_stale(rid, write.site)

    def _note_parameter_saves(self, state: State, val: Val, key) -> None:
        """A method returning what an op computed that saved one of the module's parameters (a ``params``
        group in the history of ``val``): its callers hold that save (``ctx.param_save_returns``)."""
        hist = set(val.hist)
        for part in val.parts or ():
            hist |= part.hist
        records = state.records
        for rid in hist:
            if rid not in records:
                continue
            groups = frozenset(g for g in records[rid].groups if g.startswith("params"))
            if groups:
                known = self.ctx.param_save_returns.get(key, frozenset())
                if not groups <= known:
                    self.ctx.param_save_returns[key] = known | groups
                save = self.ctx.save_by_site.get(rid[0])
                if save is not None and isinstance(save.saved_text, cst.CSTNode):
                    self.ctx.param_save_operands.setdefault(key, set()).add(save.saved_text)

    def _note_argument_saves(self, state: State, val: Val, key) -> None:
        """A function returning what an op computed that saved one of its own parameters (``q @ k.mT``
        saves ``q`` and a view of ``k``): its callers' arguments are saved while they hold the result
        (``ctx.argument_saves``, with which parameters' requiring grad made each save)."""
        hist = set(val.hist)
        for part in val.parts or ():
            hist |= part.hist
        own = {"param:" + name: name for name in self.unit.params}
        records = state.records
        triggers = self.ctx.save_triggers
        found: Dict[str, Optional[FrozenSet[str]]] = {}
        for rid in hist:
            record = records.get(rid)
            if record is None or record.stale or record.freed:
                continue  # a write in the function itself is its own finding
            for group in record.groups:
                # an element of an unpacked parameter (``a, b = pair``: "param:pair.1") is part of it
                param = own.get(group) or own.get(group.rsplit(".", 1)[0])
                if param is None:
                    continue
                save = self.ctx.save_by_site.get(rid[0])
                if save is not None:
                    self.ctx.argument_save_ops.setdefault((key, param), save.op_text)
                made_by = triggers.get(rid[0])
                condition = None  # some argument must require grad
                if made_by is not None and ALWAYS_SAVED <= made_by:
                    condition = ALWAYS_SAVED
                elif made_by and all(g in own for g in made_by):
                    condition = frozenset(own[g] for g in made_by)
                found[param] = join_conditions(found[param], condition) if param in found else condition
        # a function analysed that saves none of its parameters has a summary too (empty): a module call
        # of a class of this file then saves what its forward saves, not every positional input
        self.ctx.argument_params[key] = list(self.unit.param_order)
        summary = self.ctx.argument_saves.setdefault(key, {})
        for param, condition in found.items():
            summary[param] = join_conditions(summary[param], condition) if param in summary else condition

    @staticmethod
    def _returns_saved_tensor(state: State, val: Val) -> bool:
        """Is the returned tensor one that a save reachable from the return (or escaped) holds?"""
        if not val.tensorish or not val.groups:
            return False
        covered = set()
        for rid, rec in state.records.items():
            if not rec.freed and rec.groups & val.groups and (rid in val.hist or rid in state.escaped):
                covered |= rec.groups & val.groups
        # every tensor it may return must be saved: a loop whose last pass skips the saving op
        # (MLP: relu on all but the last layer) returns an unsaved tensor on that path
        return bool(covered) and covered >= {g for g in val.groups if g.startswith("t")}

    def _is_shared(self, state: State, target: Val, write: WriteSite) -> bool:
        """May the written tensor be seen through anything but the name being written?"""
        nonlocal_holder, holders = self._holders(state, target, write)
        return nonlocal_holder or bool(holders)

    @staticmethod
    def _multiview_origin(state: State, target: Val,
                          write: WriteSite) -> Tuple[Optional[MultiView], frozenset]:
        """The op that made the multi-view ``target``, and the other local names holding an output of the
        same call (``k`` and ``v`` of ``q, k, v = qkv.unbind(0)``, when ``q`` is written)."""
        origin = target.multiview_from
        if origin is None or origin.call is None:
            return origin, frozenset()
        base = _view_base(write.target_node) if write.target_node is not None else None
        skip = {write.target_text, base.value if base is not None else None}
        same = origin._replace(stage=OUTPUT) if origin.output >= 0 else None
        siblings = frozenset(
            n for n, v in state.env.items()
            if n not in skip and "." not in n and v.multiview and v.multiview_from is not None
            and v.multiview_from.call is origin.call and v.multiview_from.stage == OUTPUT
            and v.multiview_from != same)
        return origin, siblings

    @staticmethod
    def _holders(state: State, target: Val, write: WriteSite) -> Tuple[bool, frozenset]:
        """(seen by something outside this function's local names, the other local names that see it)."""
        if write.form == "element_augassign":
            # laterals[i] += up: seen by nothing else when only the list or dict built here holds it
            base = write.target_node.value
            holders = {n for n, v in state.env.items() if v.groups & target.groups and v.kind != MODULE}
            local = type(base) is cst.Name and holders == {base.value} and \
                all(g.startswith("t") for g in target.groups)
            return not local, frozenset()
        if not write.target_is_local_name:
            return True, frozenset()
        if any(not g.startswith("t") for g in target.groups):
            return True, frozenset()  # an argument, attribute, global or parameter: others hold it
        holders = frozenset(n for n, v in state.env.items()
                            if v.groups & target.groups and v.kind != MODULE and n != write.target_text)
        if any("." in n or v.kind == CONTAINER for n, v in state.env.items() if n in holders):
            return True, frozenset()  # an attribute or a container holds it
        return False, holders

    def _param_group_matches(self, group: str, token: str) -> bool:
        if not group.startswith("params"):
            return False
        label = group[len("params:"):] if group.startswith("params:") else self.ctx.param_labels.get(group, "")
        mine = sem.module_token(label)
        return bool(mine) and (mine.startswith(token) or token.startswith(mine))

    def _report_stale(self, rid: RecordId, write_site: int, by=None) -> None:
        write = self.ctx.write_sites.get(write_site)
        if write is None:
            return
        save = self._save_site_for(rid)
        self.ctx.report(StaleSave, write, save, reached_by=by)

    def _save_site_for(self, rid: RecordId) -> Optional[SaveSite]:
        return self.ctx.save_by_site.get(rid[0])

    def reach(self, state: State, val: Val, free: bool, by=None) -> None:
        """A backward through ``val`` (or ``val`` leaving the function, when ``free`` is False); ``by``:
        ("backward", the call) or ("return", the statement) that does it."""
        for rid in val.hist:
            rec = state.records.get(rid)
            if rec is None or rec.freed:
                continue
            for write_site in rec.stale:
                self._report_stale(rid, write_site, by)
            if free:
                state.records[rid] = replace(rec, freed=True)

    def escape(self, state: State, val: Val, by=None) -> None:
        if not val.hist:
            return
        self.reach(state, val, free=False, by=by)
        state.escaped = state.escaped | val.hist

    def update_aliases(self, state: State, groups: frozenset, hist: frozenset, grad: int) -> None:
        """After an in-place write, every name sharing the written groups carries the new history."""
        if not groups:
            return
        self.spend(len(state.env))
        for name, val in list(state.env.items()):
            if val.groups & groups and val.kind in (TENSOR, UNKNOWN, CONTAINER, PARAMS):
                new_grad = val.grad
                if grad == YES:
                    new_grad = YES
                elif grad == MAYBE and val.grad == NO:
                    new_grad = MAYBE
                state.env[name] = replace(val, hist=val.hist | hist, grad=new_grad, fresh=False)

    def save_condition(self, save: Save, args: Dict[str, Val], module: Optional[ModuleInfo] = None) -> bool:
        if self.unit.nograd or self.unit.hooks_depth:
            return False
        if not save.when:
            return any(v.tensorish and v.grad != NO for v in args.values())
        for param in save.when:
            if param == MODULE_PARAMS:
                if module is None or module.has_params:
                    return True
                continue
            val = args.get(param)
            if val is not None and (val.tensorish or val.kind == CONTAINER) and val.grad != NO:
                return True
        return False

    def inplace_write(
        self,
        state: State,
        target: Val,
        write: WriteSite,
        args: Dict[str, Val],
        form: Optional[InplaceForm],
        op_node: cst.CSTNode,
        qualname: str,
        module: Optional[ModuleInfo] = None,
        saved_texts: Optional[Dict[str, str]] = None,
        spared: FrozenSet[RecordId] = frozenset(),
    ) -> Val:
        """Apply an in-place op: leaf check, saves of the other inputs, the bump (never of ``spared``
        records), saves of the result."""
        if not target.tensorish:
            return target
        self.ctx.write_sites[write.site] = write
        nonlocal_holder, holders = self._holders(state, target, write)
        self.ctx.note_sharing(write.site, nonlocal_holder or bool(holders), holders if not nonlocal_holder else None)
        if write.target_is_local_name and write.target_text in self.unit.params:
            others = [v for n, v in state.env.items()
                      if v.groups & target.groups and v.kind != MODULE and n != write.target_text]
            notes = self.ctx.notes_of(write.site)
            alone = notes.private_in_helper is None or notes.private_in_helper
            notes.private_in_helper = alone and not others
        base = _view_base(write.target_node) if write.target_node is not None else None
        # feats[1].clamp_() on a list: the element is no view of the list (cloning the list is no fix)
        if base is not None and base.value in state.env and state.env[base.value].kind != CONTAINER:
            self.ctx.note_base(write.site, base.value, self._is_shared(
                state, state.env[base.value], replace(write, target_text=base.value, target_is_local_name=True)))
        if target.multiview and target.grad != NO and not self.unit.nograd:
            # torch raises at once: "Output 0 of Split is a view and is being modified inplace"
            origin = self._multiview_origin(state, target, write)
            self.ctx.report(MultiViewWrite, write, None, multiview=origin, grad_origin=target.origin)
        elif target.nograd_view and not self.unit.nograd:
            # torch raises at once: "A view was created in no_grad mode and is being modified inplace"
            self.ctx.report(NogradViewWrite, write, None, grad_origin=target.origin)
        elif (target.multiview or target.nograd_fill_view) and not self.unit.nograd and any(
                v.tensorish and v.grad == YES for k, v in args.items() if form is None or k != form.modifies):
            # an output of split/chunk/unbind of a tensor without grad, or a view made under no_grad of one,
            # written with one that requires grad (filling a buffer's unbind() views, a row taken under
            # no_grad): torch refuses that too, at once
            origin = self._multiview_origin(state, target, write) if target.multiview else None
            written = [v for k, v in args.items() if (form is None or k != form.modifies) and v.grad == YES]
            self.ctx.report(MultiViewWrite if target.multiview else NogradViewWrite, write, None, fill=True,
                            multiview=origin, grad_origin=origin_of(written))
        elif target.leaf and target.grad == YES and not self.unit.nograd:
            self.ctx.report(LeafWrite, write, None, grad_origin=target.origin)
        saved_texts = saved_texts or {}
        info = self.k.lookup(qualname) if qualname else None
        carriers = info.grad_inputs if info is not None else None  # measured: an index carries no grad
        carrying = {name: v for name, v in args.items() if carriers is None or name in carriers}
        new_records = set()
        op_text = op_node  # rendered only if a finding needs it
        result_saves = []
        for save in form.saves if form else ():
            if save.target == "result":
                result_saves.append(save)
                continue
            val = args.get(save.target)
            if val is None or not val.tensorish or not self.save_condition(save, args, module):
                continue
            sid = self.ctx.site(op_node, "save:" + save.target)
            others = [v for k, v in carrying.items() if k != save.target] or [val]
            site = SaveSite(sid, op_text, qualname, saved_texts.get(save.target, save.target), "input", save.target,
                            origin_of(others))
            new_records.add(self.create_record(state, sid, site, val.groups))
        self.bump(state, target.groups, write, spared | target.spares)
        for save in result_saves:
            if not self.save_condition(save, args, module):
                continue
            sid = self.ctx.site(op_node, "save:result")
            site = SaveSite(sid, op_text, qualname, write.target_text, "result", "result",
                            origin_of(carrying.values()))
            new_records.add(self.create_record(state, sid, site, target.groups))
        hist = frozenset(new_records)
        grad = NO
        for name, val in args.items():
            if val.tensorish and not self.unit.nograd:
                hist |= val.hist
                if name not in carrying:
                    continue
                if val.grad == YES:
                    grad = YES
                elif val.grad == MAYBE and grad == NO:
                    grad = MAYBE
        if self.unit.nograd:
            grad = NO
        self.update_aliases(state, target.groups, hist, grad)
        new_grad = target.grad if grad == NO else (YES if grad == YES or target.grad == YES else MAYBE)
        origin = target.origin if target.grad == YES or grad == NO else origin_of([target, *carrying.values()])
        return replace(target, hist=target.hist | hist, grad=new_grad, fresh=False, kind=target.kind, origin=origin)

    # ================================================================================== statements
    def run_block(self, state: Optional[State], body) -> Optional[State]:
        """Execute a statement block; None means every path through it left (return/raise/break)."""
        if type(body) is cst.IndentedBlock or type(body) is cst.SimpleStatementSuite:
            statements = body.body
        elif isinstance(body, (list, tuple)):
            statements = body
        else:
            statements = [body]
        for statement in statements:
            if state is None:
                return None
            state = self.run_statement(state, statement)
        return state

    def run_statement(self, state: State, node) -> Optional[State]:
        self.unit.steps += 1
        try:
            return self._run_statement(state, node)
        except RecursionError:
            raise
        except Exception:
            if debug.DEBUG:
                raise
            return state  # an analysis gap on one statement must not lose the rest of the function

    def _run_statement(self, state: State, node) -> Optional[State]:
        kind = type(node)
        if kind in _SMALL_STATEMENTS:  # the body of a one-line suite: "if flag: y.mul_(2)"
            return self.run_small(state, node)
        if kind is cst.SimpleStatementLine:
            for small in node.body:
                if state is None:
                    return None
                state = self.run_small(state, small)
            return state
        if kind is cst.If:
            self.eval(state, node.test)
            decided = decide_on_constants(node.test, self.unit.constant_params)
            if decided is not None:
                # every call passes the string the test compares: only one branch ever runs
                if decided:
                    return self.run_block(state, node.body)
                if node.orelse is None:
                    return state
                if type(node.orelse) is cst.If:
                    return self.run_statement(state, node.orelse)
                return self.run_block(state, node.orelse.body)
            then_flags, else_flags = self._flags_of(node.test)
            flags = state.flags
            if then_flags and then_flags <= flags or else_flags and _contradicts(else_flags, flags):
                return self.run_block(state, node.body)  # a flag this path already took a branch on
            if else_flags and else_flags <= flags or then_flags and _contradicts(then_flags, flags):
                if node.orelse is None:
                    return state
                return self.run_statement(state, node.orelse) if type(node.orelse) is cst.If else \
                    self.run_block(state, node.orelse.body)
            then_state = state.copy()
            then_state.flags |= then_flags
            narrowed = sem.isinstance_narrowing(self, then_state, node.test)
            if narrowed is not None:
                then_state.env[narrowed[0]] = narrowed[1]
            then_facts, else_facts = _branch_evidence(self, node.test)
            then_state = self._run_branch(then_state, node.body, then_facts)
            if node.orelse is None:
                else_state = state if else_facts is None and not else_flags else \
                    self._run_branch(self._flagged(state.copy(), else_flags), (), else_facts)
            elif type(node.orelse) is cst.If:
                else_state = self._run_branch(self._flagged(state.copy(), else_flags), node.orelse,
                                              else_facts)
            else:
                else_state = self._run_branch(self._flagged(state.copy(), else_flags), node.orelse.body,
                                              else_facts)
            if then_state is not None and else_state is not None:
                _split_path_local_saves(then_state, else_state)
            return join_states(then_state, else_state)
        if kind is cst.For:
            return self.run_loop(state, node)
        if kind is cst.While:
            return self.run_loop(state, node)
        if kind is cst.With:
            return self.run_with(state, node)
        if kind in (cst.Try, cst.TryStar):
            return self.run_try(state, node)
        if kind is cst.FunctionDef:
            if self.unit.function_name:  # a closure (a def at the top level sees the globals)
                self.ctx.closure_owner[node] = self.ctx.current_unit
                seen = self.ctx.closure_envs.get(node)
                env = {name: replace(val, hist=frozenset()) for name, val in state.env.items()}
                self.ctx.closure_envs[node] = env if seen is None else {
                    name: seen[name].join(val) for name, val in env.items() if name in seen}
            state.env[node.name.value] = Val(kind=OTHER, grad=NO)
            return state
        if kind is cst.ClassDef:
            state.env[node.name.value] = Val(kind=OTHER, grad=NO)
            return state
        if kind is cst.Match:
            self.eval(state, node.subject)
            result = None
            for case in node.cases:
                result = join_states(result, self.run_block(state.copy(), case.body))
            return join_states(result, state)
        return state

    def _flags_of(self, test) -> Tuple[FrozenSet[Tuple[str, bool]], FrozenSet[Tuple[str, bool]]]:
        """(then, else): the flags an ``if`` test sets in each branch -- ``if in_place:``, ``if not
        self.normalize:``, each operand of an ``and`` in its then branch, of an ``or`` in its else branch --
        for a name or ``self`` attribute this function never rebinds (its value then holds all along)."""
        kind = type(test)
        if kind is cst.UnaryOperation and type(test.operator) is cst.Not:
            then, orelse = self._flags_of(test.expression)
            return orelse, then
        if kind is cst.BooleanOperation:
            left, right = self._flags_of(test.left), self._flags_of(test.right)
            if type(test.operator) is cst.And:
                return left[0] | right[0], frozenset()
            return frozenset(), left[1] | right[1]
        name = test.value if kind is cst.Name else dotted(test) if kind is cst.Attribute else None
        own = self.unit.self_name + "."
        if name is None or name in ("True", "False", "None") or name in self.unit.rebound or (
                kind is cst.Attribute and not (own != "." and name.count(".") == 1 and name.startswith(own)
                                               and own not in self.unit.rebound)):
            return frozenset(), frozenset()
        return frozenset({(name, True)}), frozenset({(name, False)})

    @staticmethod
    def _flagged(state: State, flags: FrozenSet[Tuple[str, bool]]) -> State:
        state.flags |= flags
        return state

    def _run_branch(self, state: State, body, facts: Optional["BranchFacts"]) -> Optional[State]:
        """Run one branch of an ``if`` with what its test established there: names that require no grad
        (the else of ``if x.requires_grad:``), names that are no tensor (the else of ``isinstance(x,
        torch.Tensor)``), grad mode off (the else of ``if torch.is_grad_enabled():``)."""
        if facts is None:
            return self.run_block(state, body) if type(body) is not cst.If else self.run_statement(state, body)
        unrecorded: Set[str] = set()
        for name in facts.no_grad:
            val = state.env.get(name)
            if val is not None and val.tensorish:
                state.env[name] = replace(val, grad=NO, leaf=False)
                unrecorded |= val.groups
        if unrecorded:
            # a save that only these tensors' requiring grad made was never made on this path
            triggers = self.ctx.save_triggers
            for rid, record in list(state.records.items()):
                made_by = triggers.get(rid[0])
                if made_by and not ALWAYS_SAVED <= made_by and made_by <= unrecorded and record.groups:
                    state.records[rid] = replace(record, groups=frozenset())
        for name in facts.not_tensor:
            if name in state.env:
                state.env[name] = OTHER_VAL
        if facts.grad_off:
            self.unit.nograd_depth += 1
        try:
            if type(body) is cst.If:
                return self.run_statement(state, body)
            return self.run_block(state, body)
        finally:
            if facts.grad_off:
                self.unit.nograd_depth -= 1

    def run_small(self, state: State, node) -> Optional[State]:
        self.current_statement = node
        kind = type(node)
        if kind is cst.Expr:
            self.eval(state, node.value)
            return state
        if kind is cst.Assign:
            value = self.eval(state, node.value)
            for target in node.targets:
                self.assign(state, target.target, value, node.value)
            return state
        if kind is cst.AnnAssign:
            if node.value is not None:
                value = self.eval(state, node.value)
                self.assign(state, node.target, value, node.value)
            else:
                value = sem.from_annotation(self, node.annotation)
                if value is not None and type(node.target) is cst.Name:
                    state.env[node.target.value] = value
            return state
        if kind is cst.AugAssign:
            self.aug_assign(state, node)
            return state
        if kind is cst.Return:
            if node.value is not None:
                val = self.eval(state, node.value)
                if self.unit.returns_escape:
                    self.escape(state, val, by=("return", node))
                key = self.unit.summary_key
                if key is not None and self._returns_saved_tensor(state, val):
                    self.ctx.return_summaries[key] = True
                elif key is not None and val.kind == CONTAINER and val.parts is None and val.keys is None \
                        and val.elem_kind in (TENSOR, UNKNOWN) and not _may_be_passed_in(val) \
                        and self._returns_saved_tensor(state, val.element()):
                    # a list of tensors its own ops saved, built in a loop (feats.append(torch.relu(h)))
                    self.ctx.return_elements[key] = True
                elif key is not None and val.kind == CONTAINER and val.parts:
                    # an element that may be what a caller passed in (``return out, state``), or a
                    # tuple of tensors on some path (past key/values), is not a tensor this function made
                    saved = tuple(part.tensorish and any(g.startswith("t") for g in part.groups)
                                  and not _may_be_passed_in(part)
                                  and self._returns_saved_tensor(state, part) for part in val.parts)
                    known = self.ctx.return_parts.get(key)
                    if known is not None and len(known) == len(saved):
                        saved = tuple(a or b for a, b in zip(known, saved))
                    if any(saved):
                        # a dict returned ({"logits": ..., "attn": ...}): its keys, if every return agrees
                        keys = self.ctx.return_keys.get(key, val.keys) if known is not None else val.keys
                        self.ctx.return_keys[key] = keys if keys == val.keys else None
                        self.ctx.return_parts[key] = saved
                if key is not None and self.unit.params:
                    self._note_argument_saves(state, val, key)
                if key is not None:
                    self._note_module_return(val, key)
                    self._note_alias_return(val, key)
                    self._note_nograd_return(val, key)
                if self.unit.class_name and self.unit.self_name:
                    self._note_view_return(val)
                    if key is not None:
                        self._note_parameter_saves(state, val, key)
            self.unit.returns = join_states(self.unit.returns, state)
            return None
        if kind is cst.Raise:
            if node.exc is not None:
                self.eval(state, node.exc)
            return None
        if kind is cst.Break:
            if self.unit.loop_stack:
                self.unit.loop_stack[-1][1].append(state)
            return None
        if kind is cst.Continue:
            if self.unit.loop_stack:
                self.unit.loop_stack[-1][0].append(state)
            return None
        if kind in (cst.Import, cst.ImportFrom):
            self.unit.imports.add(node)
            return state
        if kind is cst.Del:
            for target in _flatten_targets(node.target):
                if type(target) is cst.Name:
                    state.env.pop(target.value, None)
            return state
        if kind is cst.Assert:
            self.eval(state, node.test)
            return state
        return state

    def _note_module_return(self, val: Val, key) -> None:
        """A function returning a module it built (``def conv_bn_relu(...): return nn.Sequential(...)``): its
        callers get that module, its layers and their in-place flags -- when every return path returns one."""
        built = self.ctx.returned_modules
        if val.kind == MODULE and val.module is not None and not (key in built and built[key] is None):
            val = replace(val, hist=frozenset())
            joined = val if key not in built else built[key].join(val)
            built[key] = joined if joined.kind == MODULE and joined.module is not None else None
        else:
            built[key] = None

    def _note_alias_return(self, val: Val, key) -> None:
        """A function handing back what it is passed, or a view of it (``return t.reshape(-1, d)``): its
        callers' result shares the argument's version counter -- when every return path returns the same
        parameter so."""
        aliases = self.ctx.alias_returns
        param = None
        # one parameter's group, and maybe tensors made here (``t.float()`` may be ``t`` or a copy)
        passed = [g for g in val.groups if not g.startswith("t")]
        if val.tensorish and len(passed) == 1 and passed[0].startswith("param:") and not val.parts:
            name = passed[0][len("param:"):]
            param = name if name in self.unit.params else None
        if key in aliases and aliases[key] != param:
            aliases[key] = None
        else:
            aliases[key] = param

    def _note_nograd_return(self, val: Val, key) -> None:
        """Does every return of the function hand back only values that require no grad, whatever its
        callers pass (its parameters taken for tensors that may: else a NO says nothing of them)? When its
        parameters were taken for tensors that require no grad (a plain function's, with no evidence),
        note it of calls whose arguments all require no grad."""
        nograd = val.grad == NO and all(part.grad == NO for part in val.parts or ())
        grads = self.ctx.nograd_returns
        unit = self.unit
        if unit.params_may_require_grad or unit.params_from_callers or not unit.params_without_evidence:
            grads[key] = grads.get(key, True) and nograd
            return
        grads[key] = False
        given = self.ctx.nograd_returns_of_nograd_args
        given[key] = frozenset(unit.params_without_evidence) if given.get(key, True) and nograd else None

    def _note_view_return(self, val: Val) -> None:
        """Keep what a method returns when it is a view torch refuses to write (a no_grad view of one of
        ``self``'s tensors, split outputs): its callers get that view (``self`` attributes are the same
        values in every method, and a call's own tensors are fresh to its caller)."""
        key = (self.unit.class_name, self.unit.function_name)
        views = self.ctx.views_returned
        if val.kind == CONTAINER and val.parts:  # ``return self.w[:n], self.w[n:]`` under no_grad
            viewed = any(map(_refused_view, val.parts)) and not any(map(_may_be_passed_in, val.parts))
        else:
            viewed = _refused_view(val)
        if not viewed or (key in views and views[key] is None):
            views[key] = None
        else:
            val = replace(val, hist=frozenset())  # its saves are the method's, not the caller's
            views[key] = val if key not in views else views[key].join(val)

    def run_loop(self, state: State, node) -> Optional[State]:
        is_for = type(node) is cst.For
        element = None
        distinct = frozenset()
        if is_for:
            element = sem.iterate(self, state, node.iter)
            distinct = _distinct_elements(state, element)
        made_before = frozenset(state.records)
        head = state
        exit_states: List[State] = []
        # ``for step in range(3)``: the body runs at least once, so after the loop the state before it (no
        # round at all) is no longer possible -- only what some round left
        ran: Optional[State] = None
        at_least_once = is_for and _runs_at_least_once(node.iter)
        for _round in range(MAX_LOOP_ROUNDS):
            body_in = head.copy()
            if distinct and _round:
                _earlier_elements(body_in, distinct, made_before)
            if is_for:
                self.assign(body_in, node.target, element, None)
            else:
                self.eval(body_in, node.test)
            self.unit.loop_stack.append(([], []))
            body_out = self.run_block(body_in, node.body)
            continues, breaks = self.unit.loop_stack.pop()
            for s in continues:
                body_out = join_states(body_out, s)
            exit_states = breaks
            if body_out is not None:
                ran = body_out if ran is None else ran.join(body_out)
            new_head = head.join(body_out) if body_out is not None else head
            if loop_settled(head, new_head) or self.unit.steps > STEP_BUDGET:
                head = new_head
                break
            head = new_head
        result = ran.copy() if at_least_once and ran is not None else head
        if distinct:
            _earlier_elements(result, distinct, made_before, back=True)
        if is_for:
            self._freeze_after_loop(result, node)
        if node.orelse is not None:
            result = self.run_block(result.copy(), node.orelse.body)
        for s in exit_states:
            result = join_states(result, s)
        return result

    @staticmethod
    def _freeze_after_loop(state: State, node: cst.For) -> None:
        """``for p in ema.parameters(): p.requires_grad = False`` (``p.requires_grad_(False)``,
        ``p.detach_()``) freezes the module: its parameters, taken again afterwards, are leaves that do not
        require grad."""
        it = node.iter
        if not (type(it) is cst.Call and type(it.func) is cst.Attribute
                and it.func.attr.value == "parameters" and type(node.target) is cst.Name):
            return
        key = dotted(it.func.value)
        holder = state.env.get(key) if key else None
        if holder is None or not (holder.kind == MODULE and holder.module is not None or holder.kind == UNKNOWN):
            return
        var = node.target.value
        for inner in walk(node.body):
            if type(inner) is cst.Assign:
                freezes = any(type(t.target) is cst.Attribute and t.target.attr.value == "requires_grad"
                              and type(t.target.value) is cst.Name and t.target.value.value == var
                              for t in inner.targets) and sem.is_false_or_none(inner.value)
            elif type(inner) is cst.Call:
                func = inner.func
                # ``p.requires_grad_(False)``, or ``p.detach_()``: a leaf detached in place requires no grad
                freezes = (type(func) is cst.Attribute and type(func.value) is cst.Name
                           and func.value.value == var
                           and (func.attr.value == "requires_grad_" and bool(inner.args)
                                and sem.is_false_or_none(inner.args[0].value)
                                or func.attr.value == "detach_" and not inner.args))
            else:
                continue
            if freezes:
                if holder.kind == UNKNOWN:
                    # ``self.shadow = copy.deepcopy(model)``: a value with .parameters() is a module
                    state.env[key] = sem.frozen_module(key)
                else:
                    state.env[key] = replace(holder, module=replace(holder.module, frozen=True, has_params=False))
                return

    def run_with(self, state: State, node: cst.With) -> Optional[State]:
        grad_change = 0
        hooks = 0
        for item in node.items:
            mode = sem.grad_mode(self, item.item)
            if mode == "nograd":
                grad_change += 1
            elif mode == "enable_grad":
                grad_change -= 1
            elif mode == "hooks":
                hooks += 1
            else:
                value = self.eval(state, item.item)
                if item.asname is not None:
                    self.assign(state, item.asname.name, value.element() if value.kind == CONTAINER else value, None)
        unit = self.unit
        saved_depth = unit.nograd_depth
        if grad_change > 0:
            unit.nograd_depth += grad_change
        elif grad_change < 0:
            unit.nograd_depth = 0
        unit.hooks_depth += hooks
        try:
            return self.run_block(state, node.body)
        finally:
            unit.nograd_depth = saved_depth
            unit.hooks_depth -= hooks

    def run_try(self, state: State, node) -> Optional[State]:
        before = state.copy()
        after_body = self.run_block(state, node.body)
        handler_in = before.join(after_body) if after_body is not None else before
        result = None
        if node.orelse is not None and after_body is not None:
            result = self.run_block(after_body, node.orelse.body)
        else:
            result = after_body
        for handler in node.handlers:
            if handler.name is not None:
                bound = handler.name.name
                handler_in.env[bound.value if type(bound) is cst.Name else "_"] = OTHER_VAL
            result = join_states(result, self.run_block(handler_in.copy(), handler.body))
        if node.finalbody is not None:
            final_in = result if result is not None else handler_in.copy()
            final_out = self.run_block(final_in, node.finalbody.body)
            return final_out if result is not None else None
        return result

    # ================================================================================= assignment
    def assign(self, state: State, target, value: Val, value_node) -> None:
        if value.kind == MODULE and value.module is not None and type(target) in (cst.Name, cst.Attribute):
            self.ctx.param_labels.setdefault(value.module.param_group, dotted(target) or "")
        if type(target) is cst.Name:
            state.env[target.value] = value
        elif type(target) in (cst.Tuple, cst.List):
            elements = [e.value for e in target.elements]
            parts = None
            if type(value_node) in (cst.Tuple, cst.List) and len(value_node.elements) == len(elements):
                if not any(type(e) is cst.StarredElement for e in value_node.elements):
                    parts = [self._peek(state, e.value) for e in value_node.elements]
            if parts is None and value.parts is not None and len(value.parts) >= len(elements) and not any(
                    type(e) is cst.StarredElement for e in target.elements):
                # an op's trailing internal outputs (slogdet's LU and pivots) are not returned to Python
                parts = list(value.parts[:len(elements)])
            for i, (written, element) in enumerate(zip(target.elements, elements)):
                if type(written) is cst.StarredElement:
                    # first, *rest = model.parameters(): a list of the remaining parameters, never one of
                    # them (a tensor's rows stay what unpacking makes of it: unbind's views)
                    if value.kind == PARAMS:
                        self.assign(state, element, value, None)
                        continue
                part = parts[i] if parts is not None else sem.unpack(
                    value, i, value_node, starred=type(written) is cst.StarredElement,
                    after_starred=any(type(e) is cst.StarredElement for e in target.elements[:i]))
                self.assign(state, element, part, None)
        elif type(target) is cst.StarredElement:
            self.assign(state, target.value, value, None)
        elif type(target) is cst.Attribute:
            base = self.eval(state, target.value)
            key = dotted(target)
            if target.attr.value == "requires_grad" and base.tensorish:
                name = dotted(target.value)
                if name:  # layer.weight.requires_grad = False: remember it for later reads of layer.weight
                    enabled = not (type(value_node) is cst.Name and value_node.value == "False")
                    leaf = enabled and (base.fresh or base.leaf or (not base.hist and base.grad == NO))
                    state.env[name] = replace(base, grad=YES if enabled else NO, leaf=leaf,
                                              origin=GradOrigin(target, REQUIRES_GRAD) if enabled else None)
                return
            if target.attr.value == "data" and base.tensorish:
                return  # x.data = y swaps storage without a version bump
            if key is not None:
                state.env[key] = value
            self.escape(state, value)
        elif type(target) is cst.Subscript:
            container = self.eval(state, target.value)
            self._eval_slices(state, target)
            if sem.is_mapping_key(target):
                self.escape(state, value)  # d["pair"] = t: a dict entry, not a tensor write
                name = dotted(target.value)
                key = sem.string_key(getattr(target.slice[0].slice, "value", None))
                if name and key is not None and container.kind == CONTAINER and container.keys is not None \
                        and state.env.get(name) is container:
                    state.env[name] = container.with_item(key, value)
            elif container.tensorish and _per_level_module_store(container, target, value_node):
                # x[i] = self.m[i](x[i]) on a parameter: the i-th module applied to the i-th level of a list
                # of feature maps (a detection head), stored back in that list -- not a tensor write
                self.escape(state, value)
                name = dotted(target.value)
                if name and name in state.env:
                    state.env[name] = replace(sem.container_of([value]), parts=None)
            elif container.tensorish:
                write = self.write_site(target, "subscript", "[...] =", target.value, stmt=True)
                self.inplace_write(state, container, write, {"self": container, "value": value},
                                   None, target, "torch.Tensor.__setitem__")
            elif container.kind == CONTAINER:
                name = dotted(target.value)
                if name and name in state.env:
                    state.env[name] = _merge_into_container(container, value)
            else:
                self.escape(state, value)

    def _peek(self, state: State, node) -> Val:
        return self.eval(state, node)

    def write_site(self, node, form, op_text, target_node, stmt=False, kwarg_node=None) -> WriteSite:
        """The in-place write at ``node``; the finding covers its statement when ``stmt``."""
        range_node = self._statement_of(node) if stmt else node
        sid = self.ctx.site(range_node, "write")
        existing = self.ctx.write_sites.get(sid)
        if existing is not None:
            return existing
        # a name as written ("h", "self.h"); anything else is rendered only if a finding needs it
        target_text = (dotted(target_node) or "") if target_node is not None else ""
        write = WriteSite(
            sid,
            range_node,
            form,
            op_text,
            target_text,
            kwarg_node,
            type(target_node) is cst.Name,
            target_node,
        )
        self.ctx.write_sites[sid] = write
        return write

    def _statement_of(self, node):
        return self.current_statement if getattr(self, "current_statement", None) is not None else node

    def aug_assign(self, state: State, node: cst.AugAssign) -> None:
        target_val = self.eval(state, node.target)
        value = self.eval(state, node.value)
        symbol = AUG_SYMBOLS.get(type(node.operator))
        if symbol is None:
            return
        in_subscript = type(node.target) is cst.Subscript
        element = False  # a list's or dict's element: laterals[i - 1] += up(laterals[i])
        if in_subscript:
            container = self.eval(state, node.target.value)
            if container.kind == CONTAINER:
                # the element's own __iadd__: the tensor in the slot is written in place
                if not target_val.tensorish or target_val.maybe_number or target_val.kind == CONTAINER:
                    return
                element, in_subscript = True, False
                subject = target_val
            else:
                # y[mask] -= v runs y[mask] = y[mask] - v in place: an advanced index (a mask, an index
                # tensor, a list) reads a copy, and the store writes y itself (index_put_)
                gathered = container.tensorish and self.allocated_at(node.target, target_val)
                subject = target_val if target_val.tensorish and not gathered else container
        else:
            subject = target_val
        if not subject.tensorish or (subject.maybe_number and not in_subscript and not element
                                     and subject.kind == UNKNOWN and value.kind != TENSOR):
            # Python rebinding: a number/list += ... (int += tensor makes a new tensor). An accumulator
            # that starts as a number (divisor = 1; divisor *= k) is taken to stay one.
            if type(node.target) is cst.Name:
                op = sem.BINARY_FROM_AUG.get(symbol)
                result = sem.binary_op(self, state, node, op, target_val, value, node.target, node.value) if op else value
                state.env[node.target.value] = result
            return
        method = self.k.augmented_operators.get(symbol)
        info = self.k.lookup(method) if method else None
        form = info.inplace if info and info.inplace else None
        written = node.target.value if in_subscript else node.target  # y[0] += 1 writes y
        write = WriteSite(
            self.ctx.site(node, "write"),
            node,
            "subscript" if in_subscript else "element_augassign" if element else "augassign",
            symbol,
            dotted(written) or "",
            None,
            type(written) is cst.Name,
            written,
        )
        if info is not None:
            # the overload torch runs depends on whether the operand is a Python number (b **= 2)
            operand = info.params[1] if len(info.params) > 1 else "other"
            variant = self.k.lookup_call(method, frozenset({"self", operand}),
                                         numbers=frozenset({operand}) if value.kind == OTHER else frozenset(),
                                         tensors=frozenset({operand}) if value.tensorish else frozenset())
            if variant is not None and variant.inplace is not None:
                form = variant.inplace
        else:
            operand = "other"
        args = {"self": subject, operand: value}
        texts = {"self": node.target, operand: node.value}
        spared = self._other_elements_saved(state, node.target) if element else frozenset()
        new = self.inplace_write(state, subject, write, args, form, node, method or symbol, saved_texts=texts,
                                 spared=spared)
        if type(node.target) is cst.Name:
            state.env[node.target.value] = new
        elif type(node.target) is cst.Attribute:
            key = dotted(node.target)
            if key:
                state.env[key] = new

    def _other_elements_saved(self, state: State, target: cst.Subscript) -> FrozenSet[RecordId]:
        """The saves of another element of the same list (``inter_outs[i]`` saved, ``inter_outs[i + 1]``
        written): the analysis keeps one value for all of a list's elements, but these are others."""
        base, index = dotted(target.value), self.ctx.code(target.slice[0]) if len(target.slice) == 1 else None
        if not base or index is None:
            return frozenset()
        spared = set()
        for rid in state.records:
            save = self.ctx.save_by_site.get(rid[0])
            saved = save.saved_text if save is not None else None
            if type(saved) is cst.Subscript and len(saved.slice) == 1 and dotted(saved.value) == base \
                    and self.ctx.code(saved.slice[0]) != index:
                spared.add(rid)
        return frozenset(spared)

    # ================================================================================= expressions
    def eval(self, state: State, node) -> Val:
        try:
            return self._eval(state, node)
        except RecursionError:
            raise
        except Exception:
            if debug.DEBUG:
                raise
            return Val()

    def _eval(self, state: State, node) -> Val:
        kind = type(node)  # exact types: LibCST's node classes are final, and their ABC checks are slow
        if kind is cst.Name:
            name = node.value
            if name in state.env:
                return state.env[name]
            if name in ("True", "False", "None"):
                return OTHER_VAL
            return sem.global_value(self, name, node)
        if kind in (cst.Integer, cst.Float, cst.Imaginary, cst.SimpleString, cst.ConcatenatedString,
                             cst.FormattedString, cst.Ellipsis):
            return OTHER_VAL
        if kind is cst.Attribute:
            return sem.attribute(self, state, node)
        if kind is cst.Call:
            return sem.call(self, state, node)
        if kind is cst.BinaryOperation:
            left = self.eval(state, node.left)
            mark = len(self.renamed)
            right = self.eval(state, node.right)
            left = self.catch_up(left, mark)
            op = sem.BINARY_SYMBOLS.get(type(node.operator))
            return sem.binary_op(self, state, node, op, left, right, node.left, node.right)
        if kind is cst.UnaryOperation:
            operand = self.eval(state, node.expression)
            if type(node.operator) is cst.Not:
                return OTHER_VAL
            if not operand.tensorish:
                return OTHER_VAL
            return sem.apply_op(self, state, node, "operator.neg", {"self": operand}, {"self": node.expression})
        if kind is cst.BooleanOperation:
            left = self.eval(state, node.left)
            right = self.eval(state, node.right)
            return left.join(right)
        if kind is cst.Comparison:
            vals = [self.eval(state, node.left)] + [self.eval(state, c.comparator) for c in node.comparisons]
            if any(v.tensorish for v in vals):
                return Val(kind=UNKNOWN, grad=NO, groups=frozenset({self.new_group(state, node)}))
            return OTHER_VAL
        if kind is cst.Subscript:
            return sem.subscript(self, state, node)
        if kind in (cst.Tuple, cst.List, cst.Set):
            vals = [self.eval(state, e.value) for e in node.elements]
            return sem.container_of(vals)
        if kind is cst.Dict:
            vals = []
            keys = []
            for e in node.elements:
                if type(e) is cst.DictElement:
                    self.eval(state, e.key)
                    vals.append(self.eval(state, e.value))
                    keys.append(sem.string_key(e.key))
                else:
                    vals.append(self.eval(state, e.value))
                    keys.append(None)
            container = sem.container_of(vals)
            # ({} too: ``terms = {}; terms["growth"] = ...`` fills it key by key)
            if None not in keys and len(set(keys)) == len(keys):
                container = replace(container, keys=tuple(keys))
            return container
        if kind is cst.IfExp:
            self.eval(state, node.test)
            then_flags, else_flags = self._flags_of(node.test)
            if not then_flags and not else_flags:
                return self.eval(state, node.body).join(self.eval(state, node.orelse))
            # ``diff.square_() if in_place else diff.square()``: each side's saves are made under its flag
            outer = state.flags
            state.flags = outer | then_flags
            body = self.eval(state, node.body)
            state.flags = outer | else_flags
            orelse = self.eval(state, node.orelse)
            state.flags = outer
            return body.join(orelse)
        if kind in (cst.ListComp, cst.SetComp, cst.GeneratorExp, cst.DictComp):
            return sem.comprehension(self, state, node)
        if kind is cst.NamedExpr:
            value = self.eval(state, node.value)
            self.assign(state, node.target, value, node.value)
            return value
        if kind is cst.Await:
            return self.eval(state, node.expression)
        if kind is cst.Yield:
            if node.value is not None and not type(node.value) is cst.From:
                self.escape(state, self.eval(state, node.value))
            elif type(node.value) is cst.From:
                self.escape(state, self.eval(state, node.value.item))
            return Val()
        if kind is cst.Lambda:
            return OTHER_VAL
        if kind is cst.StarredElement:
            return self.eval(state, node.value)
        return Val()

    def _eval_slices(self, state: State, node: cst.Subscript) -> List[Val]:
        vals = []
        for element in node.slice:
            s = element.slice
            if type(s) is cst.Index:
                vals.append(self.eval(state, s.value))
            elif type(s) is cst.Slice:
                for part in (s.lower, s.upper, s.step):
                    if part is not None:
                        self.eval(state, part)
        return vals


# Calls whose result views their receiver: a write into it writes the receiver.
def _split_path_local_saves(a: State, b: State) -> None:
    """Before two branches join: a tensor that a save made on one branch only holds is, on the other
    branch, a tensor of its own (renamed there), so that a name holding it there is not taken for the
    saved one after the join. ``if use: residual = h; h = self.gate(h) ...`` saves the old ``h`` on one
    path only; the other path's ``h`` is that very tensor, but nothing saved it there, and straight-line
    code of either path writes ``h *= s`` safely. (Once only: a renamed tensor is not split again.)"""
    only_a = _saved_groups(a, b)
    only_b = _saved_groups(b, a)
    if only_a:
        _rename_groups(b, {g: g + "~e" for g in only_a})
    if only_b:
        _rename_groups(a, {g: g + "~t" for g in only_b})


def _saved_groups(state: State, other: State) -> Set[str]:
    """The tensors of this function that the saves ``state`` made and ``other`` did not hold."""
    found: Set[str] = set()
    for rid, record in state.records.items():
        if rid not in other.records:
            found.update(g for g in record.groups if g.startswith("t") and "~" not in g)
    return found


def _rename_groups(state: State, names: Dict[str, str]) -> None:
    for key, val in list(state.env.items()):
        renamed = _renamed_val(val, names)
        if renamed is not val:
            state.env[key] = renamed
    for rid, record in list(state.records.items()):
        if not record.groups.isdisjoint(names):
            state.records[rid] = replace(record, groups=frozenset(names.get(g, g) for g in record.groups))


def _renamed_val(val: Val, names: Dict[str, str]) -> Val:
    parts = val.parts
    new_parts = tuple(_renamed_val(part, names) for part in parts) if parts else parts
    changed_parts = parts is not None and any(p is not q for p, q in zip(parts, new_parts))
    if val.groups.isdisjoint(names) and not changed_parts:
        return val
    return replace(val, groups=frozenset(names.get(g, g) for g in val.groups),
                   parts=new_parts if changed_parts else parts)


_EARLIER = "earlier:"


def _distinct_elements(state: State, element: Val) -> FrozenSet[str]:
    """The groups of the tensors a ``for`` over a list takes one at a time, when each round's is another
    tensor: allocated in this function and held by no name but containers (``grads = [grad(x, d) for d in
    dims]``; not views of a named tensor, which share its version counter, nor one tensor listed twice)."""
    values, groups = [element], set()
    while values:
        value = values.pop()
        if value.multiview:
            return frozenset()
        values.extend(value.parts or ())
        groups |= value.groups
    if not groups or not all(g.startswith("t") for g in groups):  # allocated here (values._local)
        return frozenset()
    for val in state.env.values():
        if val.kind != CONTAINER and val.groups & groups:
            return frozenset()
    return frozenset(groups)


def _earlier_elements(state: State, groups: FrozenSet[str], made_before: FrozenSet[RecordId],
                      back: bool = False) -> None:
    """A new round of a ``for`` over distinct tensors (:func:`_distinct_elements`): what the loop saved of
    the element of an earlier round is another tensor's save, which a write to this round's element leaves
    alone (``g *= s; total = total + g ** 2``). ``back``: after the loop, they are the list's elements
    again."""
    for rid, rec in list(state.records.items()):
        if rid in made_before:
            continue
        if back:
            renamed = frozenset(g[len(_EARLIER):] if g.startswith(_EARLIER) else g for g in rec.groups)
        else:
            renamed = frozenset(_EARLIER + g if g in groups else g for g in rec.groups)
        if renamed != rec.groups:
            state.records[rid] = replace(rec, groups=renamed)


def _contradicts(when: FrozenSet[Tuple[str, bool]], flags: FrozenSet[Tuple[str, bool]]) -> bool:
    """Do the flags a save was made under and those of the path now disagree on one?"""
    return any((name, not value) in flags for name, value in when)


def decide_on_constants(test, constants: Dict[str, object]) -> Optional[bool]:
    """The value of an ``if`` test comparing parameters with string literals (``reduce == 'sum'``,
    ``mode in ('a', 'b')``) or testing a flag (``if to_engine``), with ``not``, ``and``, ``or``, given the
    constants every call passes them; None when it depends on anything else."""
    if not constants:
        return None
    kind = type(test)
    if kind is cst.UnaryOperation and type(test.operator) is cst.Not:
        inner = decide_on_constants(test.expression, constants)
        return None if inner is None else not inner
    if kind is cst.BooleanOperation:
        left = decide_on_constants(test.left, constants)
        right = decide_on_constants(test.right, constants)
        if type(test.operator) is cst.And:
            if left is False or right is False:
                return False
            return True if left and right else None
        if left or right:
            return True
        return False if left is False and right is False else None
    if kind is cst.Name:  # ``if to_engine:`` with a flag every call passes the same
        value = constants.get(test.value)
        return value if isinstance(value, bool) else None
    if kind is not cst.Comparison or len(test.comparisons) != 1:
        return None
    operator = type(test.comparisons[0].operator)
    left, right = test.left, test.comparisons[0].comparator
    if type(left) is not cst.Name and type(right) is cst.Name and operator in (cst.Equal, cst.NotEqual):
        left, right = right, left
    if type(left) is not cst.Name or left.value not in constants:
        return None
    value = constants[left.value]
    if operator in (cst.Equal, cst.NotEqual):
        key = sem.string_key(right)
        if key is None:
            return None
        return (value == key) == (operator is cst.Equal)
    if operator in (cst.In, cst.NotIn) and type(right) in (cst.Tuple, cst.List, cst.Set):
        keys = [sem.string_key(element.value) for element in right.elements]
        if any(key is None for key in keys):
            return None
        return (value in keys) == (operator is cst.In)
    return None


class BranchFacts(NamedTuple):
    """What an ``if`` test establishes in one of its branches."""

    no_grad: FrozenSet[str] = frozenset()  # names (``x``, ``self.w``) that require no grad there
    not_tensor: FrozenSet[str] = frozenset()  # names that are no tensor there
    grad_off: bool = False  # grad mode is off there

    def __or__(self, other: "BranchFacts") -> "BranchFacts":
        return BranchFacts(self.no_grad | other.no_grad, self.not_tensor | other.not_tensor,
                           self.grad_off or other.grad_off)

    def either(self, other: "BranchFacts") -> "BranchFacts":
        """What holds when one of the two holds: a name requires no grad on both sides (grad mode off
        implies it of every name: nothing records), and so on."""
        def no_grad(facts: "BranchFacts", name: str) -> bool:
            return facts.grad_off or name in facts.no_grad
        names = frozenset(n for n in self.no_grad | other.no_grad if no_grad(self, n) and no_grad(other, n))
        return BranchFacts(names, self.not_tensor & other.not_tensor, self.grad_off and other.grad_off)


_TENSOR_TYPES = frozenset({"torch.Tensor", "torch.nn.Parameter", "torch.nn.parameter.Parameter"})


def _branch_evidence(interp, test, depth: int = 0) -> Tuple[Optional[BranchFacts], Optional[BranchFacts]]:
    """(then, else): what ``test`` establishes in each branch of an ``if`` -- ``x.requires_grad`` is false
    in the else branch (``x`` requires no grad), ``torch.is_grad_enabled()`` (grad mode off),
    ``isinstance(x, torch.Tensor)`` / ``torch.is_tensor(x)`` (``x`` is no tensor: a numpy array, a list);
    ``not`` swaps them, ``and`` keeps what each operand establishes when true, ``or`` when false."""
    kind = type(test)
    if kind is cst.UnaryOperation and type(test.operator) is cst.Not:
        then, orelse = _branch_evidence(interp, test.expression, depth)
        return orelse, then
    if kind is cst.BooleanOperation:
        left, right = _branch_evidence(interp, test.left, depth), _branch_evidence(interp, test.right, depth)
        # ``a and b`` is false when either is: what both falses establish (``not (torch.is_grad_enabled()
        # and x.requires_grad)``: grad is off or x requires none -- either way x's ops record nothing)
        if type(test.operator) is cst.And:
            both = [facts for facts in (left[0], right[0]) if facts is not None]
            either = left[1].either(right[1]) if left[1] is not None and right[1] is not None else None
            return (both[0] | both[-1]) if both else None, either
        both = [facts for facts in (left[1], right[1]) if facts is not None]
        either = left[0].either(right[0]) if left[0] is not None and right[0] is not None else None
        return either, (both[0] | both[-1]) if both else None
    if kind is cst.Attribute and test.attr.value == "requires_grad":
        name = dotted(test.value)
        return (None, BranchFacts(no_grad=frozenset({name}))) if name else (None, None)
    if kind is cst.Call and not test.args:
        if interp.unit.imports.resolve(test.func) == "torch.is_grad_enabled":
            return None, BranchFacts(grad_off=True)
    if kind is cst.Call and type(test.func) is cst.Name and test.func.value in interp.ctx.user_functions:
        return _predicate_evidence(interp, test, depth)
    if kind is cst.Call and len(test.args) in (1, 2) and type(test.args[0].value) is cst.Name:
        callee = interp.unit.imports.resolve(test.func) or dotted(test.func)
        name = test.args[0].value.value
        if callee == "torch.is_tensor" and len(test.args) == 1:
            return None, BranchFacts(not_tensor=frozenset({name}))
        if callee == "isinstance" and len(test.args) == 2:
            types = test.args[1].value
            members = [e.value for e in types.elements] if type(types) in (cst.Tuple, cst.List) else [types]
            if members and all(interp.unit.imports.resolve(m) in _TENSOR_TYPES for m in members):
                return None, BranchFacts(not_tensor=frozenset({name}))
    return None, None


def _predicate_evidence(interp, call: cst.Call, depth: int) -> Tuple[Optional[BranchFacts], Optional[BranchFacts]]:
    """``if _fast_path_ok(img1, img2):`` where this file's ``_fast_path_ok`` only returns one test (``return
    ... and not (torch.is_grad_enabled() and (img1.requires_grad or img2.requires_grad))``): what that test
    establishes of its parameters, of the names passed for them (one level of such predicates deep)."""
    if depth > 0 or any(arg.star or arg.keyword is not None for arg in call.args):
        return None, None
    function = interp.ctx.top_level_function(call.func.value)
    body = function.body.body if function is not None and type(function.body) is cst.IndentedBlock else ()
    returns = [s.body[0] for s in body if type(s) is cst.SimpleStatementLine and type(s.body[0]) is cst.Return]
    if len(returns) != 1 or returns[0].value is None or type(body[-1]) is not cst.SimpleStatementLine \
            or body[-1].body[0] is not returns[0]:
        return None, None
    params = interp.ctx.function_params[call.func.value]
    passed = {param: dotted(arg.value) for param, arg in zip(params, call.args)}
    then, orelse = _branch_evidence(interp, returns[0].value, depth + 1)

    def renamed(facts: Optional[BranchFacts]) -> Optional[BranchFacts]:
        if facts is None:
            return None
        no_grad = frozenset(passed[n] for n in facts.no_grad if passed.get(n))
        not_tensor = frozenset(passed[n] for n in facts.not_tensor if passed.get(n))
        return BranchFacts(no_grad, not_tensor, facts.grad_off)
    return renamed(then), renamed(orelse)


def _per_level_module_store(container: Val, target: cst.Subscript, value_node) -> bool:
    """``x[i] = self.m[i](x[i])`` where ``x`` is (or, in a loop, may still be) a parameter nothing has shown
    to be a tensor: a module picked from a list by the same index ``i`` (a plain name) applied to ``x[i]``."""
    if container.kind == TENSOR or not any(g.startswith("param:") for g in container.groups):
        return False
    index = _index_name(target)
    if index is None or type(value_node) is not cst.Call or not value_node.args:
        return False
    func, arg = value_node.func, value_node.args[0].value
    return type(func) is cst.Subscript and _index_name(func) == index and \
        type(arg) is cst.Subscript and _index_name(arg) == index and dotted(arg.value) == dotted(target.value)


def _index_name(node: cst.Subscript) -> Optional[str]:
    """``i`` for ``x[i]``: the subscript's one index, when it is a plain name."""
    if len(node.slice) != 1 or type(node.slice[0].slice) is not cst.Index:
        return None
    index = node.slice[0].slice.value
    return index.value if type(index) is cst.Name else None


def _refused_view(val: Val) -> bool:
    """A view torch refuses to write in place (with grad on, or with a value that requires grad), made
    of none of the function's parameters."""
    return (val.nograd_view or val.nograd_fill_view or val.multiview) and val.tensorish and \
        not _may_be_passed_in(val)


def _may_be_passed_in(val: Val) -> bool:
    """May this value be (part of) what a caller passed in? Then it is not a tensor the callee made."""
    return any(group.startswith("param:") for group in val.groups)


def _view_base(node) -> Optional[cst.Name]:
    """``h`` for ``h[2:]``, ``h.t()``, ``h.unsqueeze(0)[0]``; None for a plain name or anything else."""
    seen_view = False
    while True:
        if type(node) is cst.Subscript:
            node, seen_view = node.value, True
        elif (type(node) is cst.Call and type(node.func) is cst.Attribute
              and node.func.attr.value in VIEW_METHODS):
            node, seen_view = node.func.value, True
        elif type(node) is cst.Attribute and node.attr.value in TRANSPOSING_ATTRIBUTES:
            node, seen_view = node.value, True
        else:
            break
    return node if seen_view and type(node) is cst.Name else None


def _flatten_targets(node):
    if type(node) in (cst.Tuple, cst.List):
        for e in node.elements:
            yield from _flatten_targets(e.value)
    else:
        yield node


def _merge_into_container(container: Val, value: Val) -> Val:
    kind = container.elem_kind if container.elem_kind == value.kind else UNKNOWN
    return replace(
        container,
        groups=container.groups | value.groups,
        hist=container.hist | value.hist,
        grad=container.grad if container.grad == value.grad else MAYBE,
        elem_kind=kind,
    )
