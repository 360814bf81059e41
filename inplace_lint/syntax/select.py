"""Unit selection: which parts of a file the analysis needs, decided from the cheap ``ast`` tree.

LibCST parsing costs about 11 times ``ast.parse`` (and flake8 hands its plugins an ``ast`` tree for free),
so before LibCST sees a file, :func:`select` decides from the ``ast`` tree which function bodies and which
top-level statements the analysis needs, and blanks out the rest *line-preservingly*: every kept line
keeps its number and its columns, so findings, ranges and fixes computed on the reduced text are those of
the original. A dropped function body becomes ``pass`` (one line) or one triple-quoted string spanning
its lines (a string token costs LibCST almost nothing, a blank line about as much as a short statement).
A file where nothing can yield a finding is not parsed by LibCST at all. The analysis then takes a first
look at the reduced text's tree built from ``ast`` (inplace_lint/syntax/cst_from_ast.py, helped by the record of
what was blanked, :class:`Reductions`), and LibCST parses the reduced text only if that look finds a hazard.

Why leaving a part out cannot change a finding (``tests/test_perf_equivalence.py`` checks it on every
fixture and on real code). The analysis interprets each function body, and the module's top level, as a
*unit* of its own; a finding needs an in-place write and a saved tensor in the same unit. So a unit
matters only if it can write in place, and it can only through

* in-place syntax in its own body: augmented assignment; a store to a subscript; a call of a method or
  function whose name ends in ``_`` (or an in-place dunder such as ``__iadd__``, or ``step`` or
  ``load_state_dict``, which overwrite parameters, or ``register_forward_hook``, whose hook may write
  the module's output); a keyword
  ``inplace=True``, ``out=`` or ``max_norm=<number>`` (an embedding that renormalises its weight on
  every lookup); a positional ``True`` to a torch callable with an ``inplace``
  parameter (``nn.ReLU(True)``, also under an import alias); a ``.requires_grad``, ``.data`` or
  ``.grad`` store. Not counted (*soft triggers* the analysis sees as no tensor write): a store with a
  string key (``d["k"] = v``), and ``n op= rhs`` / ``d[k] = v`` on a name that the part binds only to
  literals of one kind -- numbers and strings (``n = 0``) or displays and comprehensions (``d = {}``)
  -- never a parameter, a global or a name declared global/nonlocal, with each ``op=`` keeping it so
  (a literal right side, or a name of the same kind). At the top level, which runs once in order, a
  statement is judged by the statements up to it, and ``table += other.table`` once, straight at the
  top level, rebinds the display it was bound to;
* a call of a helper of this file that writes its parameters (the helper has such syntax; every unit
  naming it is kept: rule *callers*), or of a method of its own class that does (``self.scale_(h)``:
  the methods naming it are kept), or of a method that writes its own object's tensors, from outside
  its class (``critic.clip_weights(c)``: every part naming it is kept);
* a call of a module built in place (``nn.ReLU(inplace=True)``, also inside ``nn.Sequential``) that came
  through a class's ``__init__`` (``self.act``), a global, a user class's attribute (``Block().act``) or a
  parameter refined from a call site (rule *taint*).

What a kept unit reads from elsewhere stays as it was:

* the ``__init__`` of the class of a kept method, and of every class a kept part mentions by name
  (``self.<attr>`` and ``Block().<attr>`` values come from there);
* the callers of a kept module-level function, and every other mention of its name (call-site refinement
  joins what the callers pass, and counts how the name is used); for a function also passed around as a
  value (never refined: a mention appended after the last line keeps that so), only the parts calling
  it, and only if it writes its parameters;
* the functions enclosing a kept nested function; the ``forward`` of a custom ``autograd.Function`` (what
  ``apply`` saves) with everything nested in it; the module-level functions decorating a kept unit, with
  the wrappers nested in them (a wrapper of ``torch.no_grad`` makes the decorated unit no_grad code);
* top-level statements: all of them when the top level itself writes in place; otherwise the imports,
  blocks holding definitions or imports, statements naming a kept module-level function, and every
  statement that may change a global a kept part mentions (assigns it, calls a method on it -- a name
  the top level imports is no such global: the analysis keeps imports out of its environment; nor is
  a comprehension's or a lambda's variable), transitively. A kept ``NAME = {...}`` spanning many
  lines of nothing but literals (names only in dict keys, which are evaluated and dropped) keeps its
  line but its value becomes a one-string tuple spanning the same lines: the analysis sees a container
  of non-tensors either way.

Class-level statements (other than definitions) are never interpreted; they are blanked unless they name
a kept module-level function. *Taint*: a unit may hold an in-place module if its body builds one (or a
module class whose forward writes what it is passed), it is a
method of a class whose ``__init__`` is tainted, it mentions a tainted class or a global assigned by a
tainted top-level statement, or it is a module-level function named by a tainted part (its parameters
may be refined to such a module). Tainted units are kept.

Names are matched textually, in any context, so the rules err on the side of keeping; the cost of a
wrong "keep" is only time. The analysis finds nothing in a file that imports no torch at its top level,
and neither does this (no LibCST parse).
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from typing import Dict, Iterable, List, Optional, Set, Tuple
from inplace_lint.model.findings import LintError
from inplace_lint.syntax import triggers
from inplace_lint.syntax.lines import LineIndex, lines_with_breaks, split_lines
from inplace_lint.syntax.parsing import parse_quietly
from inplace_lint.syntax.triggers import (
    INPLACE_KEYWORD, LAYER_PARAMETERS, MAX_NORM_KEYWORD, OUT_KEYWORD, STORE_ATTRIBUTES, may_write_in_place,
)


_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
_DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
# ``match`` patterns that bind names (Python 3.10+; None before, where no node has that type)
_MATCH_AS = getattr(ast, "MatchAs", None)
_MATCH_STAR = getattr(ast, "MatchStar", None)
_MATCH_MAPPING = getattr(ast, "MatchMapping", None)

# What a name is bound to in a part, as the analysis evaluates it: a literal number/string (OTHER), a
# display or comprehension (CONTAINER), or anything else.
_SCALAR, _CONTAINER, _OTHER = 1, 2, 4
_STORE = ("store",)  # a soft trigger ``name[k] = v`` (as opposed to ``name op= rhs``)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
_DISPLAYS = (ast.List, ast.Tuple, ast.Set, ast.Dict, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


@dataclass(eq=False)
class _Part:
    """What one piece of the file (a function body, a top-level or class-level statement) does."""

    node: ast.AST
    trigger: bool = False  # in-place syntax
    builds_inplace_module: bool = False  # inplace=True or a positional True
    builds_switchable: bool = False  # calls a torch callable with an ``inplace`` flag (``nn.Dropout(0.1)``)
    names: Set[str] = field(default_factory=set)  # every Name in it
    called: Set[str] = field(default_factory=set)  # names it calls: ``name(...)``
    calls: Set[str] = field(default_factory=set)  # ... outside lambdas (whose bodies are never analysed)
    receivers: Set[str] = field(default_factory=set)  # top level: names it calls a method on
    stores: Set[str] = field(default_factory=set)  # names it may change (assign, method call on them)
    # in-place syntax that writes no tensor if the name it writes is a plain number or container here
    # (``n += 1`` with ``n = 0``; ``d[k] = v`` with ``d = {}``): (name, what its right side is)
    soft: List[Tuple[str, object]] = field(default_factory=list)
    bindings: Dict[str, int] = field(default_factory=dict)  # name -> _NUMBER | _CONTAINER | _OTHER bits
    inplace_names: Set[str] = field(default_factory=set)  # names passed as ``inplace=name``


@dataclass(eq=False)
class _Unit(_Part):
    parent: Optional["_Unit"] = None
    class_name: Optional[str] = None  # set for a method (a function directly in a class body)
    module_level: bool = False  # directly in the module's body (the analysis refines these)
    children: List["_Unit"] = field(default_factory=list)
    params: Set[str] = field(default_factory=set)
    writes_params: bool = False  # may write a parameter in place (a "writing helper" for its callers)
    writes_self: bool = False  # a method that may write its own object's tensors (``self.bank[i] = k``)
    layer_defaults: bool = False  # a parameter defaults to a layer (act_layer=nn.ReLU): calls may refine it
    self_name: Optional[str] = None  # a method's first parameter
    returns_value: bool = False  # has ``return <value>`` (it may return a tensor it saved)
    # functions (``name``) and own methods (``self.name``) it calls with one of its own parameters
    passes_parameters: Set[str] = field(default_factory=set)
    # the names its decorators call or are (``@smart_inference_mode()``): a grad-off wrapper of this file
    # makes it no_grad code (inplace_lint.analysis._grad_off_decorators reads that wrapper's body)
    decorators: Set[str] = field(default_factory=set)

    @property
    def name(self) -> str:
        return self.node.name


@dataclass(eq=False)
class _Statement(_Part):
    structural: bool = False  # an import, or a block holding a definition or an import: always kept
    top: bool = True  # top level (else class level)
    unit: Optional[_Unit] = None  # a class-level statement's enclosing function, if its class is in one


def _passes_a_parameter(unit: "_Unit", functions: Set[str], methods: Set[str]) -> bool:
    """Does ``unit`` call one of ``functions`` (or ``self.<one of methods>``) with one of its own parameters
    as an argument? (Calls in its nested functions do not count: the analysis reads only the unit's own.)"""
    passes = unit.passes_parameters
    return any(name in passes for name in functions) or any("self." + name in passes for name in methods)


def _passes_own(node: ast.Call, params) -> bool:
    """Is one of ``params`` (a unit's own, not ``self``) an argument of ``node``?"""
    for arg in node.args:
        if type(arg) is ast.Name and arg.id in params:
            return True
    for keyword in node.keywords:
        if type(keyword.value) is ast.Name and keyword.value.id in params:
            return True
    return False


class _Scanner:
    """One pass over the tree: the units and statements, their syntax flags and the names they use."""

    def __init__(self) -> None:
        self.units: List[_Unit] = []
        self.top: List[_Statement] = []
        self.class_statements: List[_Statement] = []
        self.class_inits: Dict[str, List[_Unit]] = {}
        self.class_forwards: Dict[str, List[_Unit]] = {}
        self.class_methods: Dict[str, List[_Unit]] = {}
        self.class_names: Set[str] = set()
        self.autograd_forwards: List[_Unit] = []
        self.function_aliases: Set[str] = {"Function"}
        self.imports_torch = False
        self.noncall: Set[str] = set()  # names used anywhere other than as ``name(...)``
        self.true_callees: Set[str] = set(triggers.inplace_flag_callees())  # plus their import aliases
        self.declared: Set[str] = set()  # names some function declares global or nonlocal
        # names the top level imports: the analysis keeps them out of its environment, so a method call
        # on one (``np.zeros(...)``, ``torch.manual_seed(0)``) changes no global it tracks
        self.modules: Set[str] = set()
        self.assigned: Set[str] = set()  # names the top level assigns (a store of the name itself)
        self.switches_inplace = False  # some part sets ``<module>.inplace = True``

    def scan(self, tree: ast.Module) -> None:
        self._top_imports(tree.body)
        for statement in tree.body:
            if isinstance(statement, _FUNCTIONS):
                self._function(statement, None, None, True)
            elif isinstance(statement, ast.ClassDef):
                self._class(statement, None, set())
            else:
                part = _Statement(statement)
                self._body_of(part, [statement], None, stores=True)
                self.top.append(part)
        self._settle_soft_triggers(tree)
        self._settle_receivers()
        self._settle_passed_writes()

    def _settle_passed_writes(self) -> None:
        """A function that calls one of this file's functions (or a method of its own class) that writes its
        parameters may pass its own on (``scores = self.regularise(labels, scores)``): it may write what it is
        passed too (inplace_lint.analysis._parameter_writes). Kept when it may, never when it cannot."""
        changed = True
        while changed:
            changed = False
            functions = {u.name for u in self.units if u.module_level and u.writes_params}
            methods: Dict[str, Set[str]] = {}
            for unit in self.units:
                if unit.writes_params and unit.class_name is not None:
                    methods.setdefault(unit.class_name, set()).add(unit.name)
            if not functions and not methods:
                return
            for unit in self.units:
                if unit.writes_params or not unit.params:
                    continue
                callees = unit.calls & functions
                siblings = methods.get(unit.class_name or "", ()) if unit.self_name else ()
                if (callees or siblings) and _passes_a_parameter(unit, callees, siblings):
                    unit.writes_params = changed = True

    def _settle_receivers(self) -> None:
        """``lst.append(x)`` may change the global ``lst`` -- if the top level assigns ``lst`` at all: the
        analysis only updates names its environment holds, never a builtin (``float.fromhex(...)``)."""
        for part in self.top:
            if part.receivers:
                part.stores |= part.receivers & self.assigned

    def _settle_soft_triggers(self, tree: ast.Module) -> None:
        """A soft trigger (``n += 1``, ``d[k] = v``) is real unless its name is, wherever the part binds
        it, a literal number/string or a container display -- then the analysis sees a Python rebinding
        or a container store, never a tensor write."""
        # a name declared global/nonlocal somewhere, or a module-level def or class, is never a literal
        unsafe = self.declared | {s.name for s in tree.body if isinstance(s, _DEFINITIONS)}
        module_names = set(unsafe)
        for part in self.top:
            module_names |= part.stores
        for unit in self.units:
            if unit.soft and not unit.trigger:
                bindings = unit.bindings
                for param in unit.params:
                    if param in bindings:
                        bindings[param] |= _OTHER
                unit.trigger = not _discharged(unit.soft, bindings, module_names, ())
        if not any(part.soft for part in self.top):
            return
        # The top level runs once, in order: each statement is judged by what the statements up to it bind
        bindings: Dict[str, int] = {}
        soft: List[Tuple[_Part, Tuple[str, object]]] = []
        for part in self.top:
            for name, bits in part.bindings.items():
                bindings[name] = bindings.get(name, 0) | bits
            soft.extend((part, entry) for entry in part.soft)
            if not part.soft or part.trigger:
                continue
            if len(soft) > 200:  # a pathological file: judging each is quadratic; keep them
                part.trigger = True
                continue
            # ``table += other.table`` once, straight at the top level: it sees the display it was bound
            # to, whatever ``other.table`` is, so it rebinds and writes nothing
            count: Dict[str, int] = {}
            for _part, (name, _rhs) in soft:
                count[name] = count.get(name, 0) + 1
            once = {name for owner, (name, rhs) in soft if count[name] == 1 and rhs is None
                    and type(owner.node) is ast.AugAssign}
            part.trigger = not _discharged([entry for _p, entry in soft], bindings, unsafe, once,
                                           judged=part.soft)

    def _top_imports(self, body: List[ast.AST]) -> None:
        """Like the analysis's ``ImportMap``: imports at the top level and in top-level if/try blocks."""
        for statement in body:
            if isinstance(statement, ast.Import):
                for alias in statement.names:
                    full = alias.name if alias.asname else alias.name.split(".")[0]
                    self._bound(full, alias.asname)
                    self.modules.add(alias.asname or full)
            elif isinstance(statement, ast.ImportFrom):
                base = "" if statement.level or statement.module is None else statement.module
                for alias in statement.names:
                    if alias.name == "*":
                        self._bound(base, None)
                    else:
                        self._bound(f"{base}.{alias.name}" if base else alias.name, alias.asname)
                        self.modules.add(alias.asname or alias.name)
            elif isinstance(statement, ast.If):
                self._top_imports(statement.body)
                self._top_imports(statement.orelse)
            elif isinstance(statement, ast.Try) or type(statement).__name__ == "TryStar":
                self._top_imports(statement.body)
                for handler in statement.handlers:
                    self._top_imports(handler.body)

    def _bound(self, full: str, asname: Optional[str]) -> None:
        if full == "torch" or full.startswith("torch."):
            self.imports_torch = True
        if asname and full.split(".")[-1] == "Function":
            self.function_aliases.add(asname)

    # -- definitions ---------------------------------------------------------------------------------
    def _function(
        self, node, parent: Optional[_Unit], class_name: Optional[str], module_level: bool
    ) -> _Unit:
        unit = _Unit(node, parent=parent, class_name=class_name, module_level=module_level)
        args = node.args
        unit.params = {a.arg for a in args.posonlyargs + args.args + args.kwonlyargs}
        positional = args.posonlyargs + args.args
        if class_name is not None and positional:
            unit.self_name = positional[0].arg
        for extra in (args.vararg, args.kwarg):
            if extra is not None:
                unit.params.add(extra.arg)
        self.units.append(unit)
        if parent is not None:
            parent.children.append(unit)
        if class_name is not None:
            self.class_methods.setdefault(class_name, []).append(unit)
            if node.name == "__init__":
                self.class_inits.setdefault(class_name, []).append(unit)
            elif node.name == "forward":
                self.class_forwards.setdefault(class_name, []).append(unit)
        self._body_of(unit, node.body, unit)
        for decorator in node.decorator_list:
            called = decorator.func if type(decorator) is ast.Call else decorator
            if type(called) is ast.Name:
                unit.decorators.add(called.id)
        # names in the header (decorators, defaults) count as mentions too
        for part in (node.decorator_list, node.args.defaults, node.args.kw_defaults):
            for expr in part:
                if expr is not None:
                    self._add_names(unit, expr)
        if unit.inplace_names:
            # def __init__(self, c, inplace=True): ... nn.SiLU(inplace=inplace): in place unless a call says
            # otherwise (the analysis looks at the calls: inplace_lint.analysis._true_defaults). Every part
            # naming the function or class is kept (as for a layer default): the calls decide
            named = list(zip(positional[len(positional) - len(args.defaults):], args.defaults)) + \
                list(zip(args.kwonlyargs, args.kw_defaults))
            if any(a.arg in unit.inplace_names and type(d) is ast.Constant and d.value is True
                   for a, d in named):
                unit.trigger = unit.builds_inplace_module = unit.layer_defaults = True
        for default in node.args.defaults + node.args.kw_defaults:
            if type(default) in (ast.Name, ast.Attribute, ast.Call):
                unit.layer_defaults = True  # act_layer=nn.ReLU, act_layer=partial(nn.GELU, ...)
            # act_layer=partial(nn.ReLU, inplace=True): calls of the parameter build a module in place
            if type(default) is ast.Call and any(
                    k.arg == INPLACE_KEYWORD and type(k.value) is ast.Constant and k.value.value is True
                    for k in default.keywords):
                unit.trigger = unit.builds_inplace_module = True
        return unit

    def _class(self, node: ast.ClassDef, parent: Optional[_Unit], names: Set[str]) -> None:
        """The class's methods become units, its other statements class-level statements; the names of
        its header go to ``names`` (the enclosing unit's, which holds its text)."""
        self.class_names.add(node.name)
        names.add(node.name)
        autograd = any(_terminal(base) in self.function_aliases for base in node.bases)
        header = _Part(node)
        for part in (node.bases, node.keywords, node.decorator_list):
            for expr in part:
                self._add_names(header, expr)
        names.update(header.names)
        for statement in node.body:
            if isinstance(statement, _FUNCTIONS):
                unit = self._function(statement, parent, node.name, False)
                names.update(unit.names)
                if autograd and statement.name == "forward":
                    self.autograd_forwards.append(unit)
            elif isinstance(statement, ast.ClassDef):
                self._class(statement, parent, names)
            else:
                part = _Statement(statement, top=False, unit=parent)
                self._body_of(part, [statement], parent, methods_of=node.name)
                part.trigger = part.builds_inplace_module = False  # never interpreted
                names.update(part.names)
                self.class_statements.append(part)

    # -- bodies --------------------------------------------------------------------------------------
    def _body_of(self, owner: _Part, statements: Iterable[ast.AST], unit: Optional[_Unit],
                 stores: bool = False, methods_of: Optional[str] = None) -> None:
        """Flags and names of ``statements``; nested definitions become units of their own."""
        stack = list(statements)
        names = owner.names
        called = owner.called
        calls = owner.calls
        noncall = self.noncall
        params = owner.params if unit is owner else ()
        own_params = set(params) - {unit.self_name} if params else ()
        passes = owner.passes_parameters if own_params else None
        param_tensors: Set[str] = set()  # loop names over a parameter's .parameters(): writing them writes it
        param_modules: Set[str] = set()  # ... over its .modules(): writing ``m.mask`` in place writes it
        writes_params = False
        self_name = unit.self_name if unit is owner else None
        self_tensors: Set[str] = set()  # loop names over self.parameters() / self.state_dict().values()
        writes_self = False
        stored = owner.stores
        trigger = owner.trigger
        builds = owner.builds_inplace_module
        structural = False
        soft = owner.soft
        bindings = owner.bindings
        blessed: Set[int] = set()  # targets a soft trigger or a literal binding accounts for
        true_callees = self.true_callees
        modules = self.modules
        local_targets: Set[int] = set()  # comprehension variables: local to the comprehension
        lambda_params: frozenset = frozenset()  # the parameters of the lambdas the walk is in
        receivers = owner.receivers
        assigned = self.assigned
        aliases: Set[str] = set()  # names bound to a parameter (x = token)
        written: Set[str] = set()  # other names written in place (x += pos), to match against those
        while stack:
            node = stack.pop()
            kind = type(node)
            if kind is ast.Constant:
                continue
            if kind is _LeaveLambda:
                # the analysis never interprets a lambda's body: in-place spellings there trigger nothing
                trigger, builds, writes_params, writes_self, lambda_params = node.state
                continue
            if kind is ast.Lambda:
                stack.append(_LeaveLambda((trigger, builds, writes_params, writes_self, lambda_params)))
                arguments = node.args
                lambda_params = lambda_params | {a.arg for a in arguments.posonlyargs + arguments.args
                                                 + arguments.kwonlyargs}
                stack.append(node.body)
                stack.extend(node.args.defaults)
                stack.extend(d for d in node.args.kw_defaults if d is not None)
                continue
            if kind is ast.Name:
                names.add(node.id)
                noncall.add(node.id)
                if type(node.ctx) is not ast.Load:
                    if stores and id(node) not in local_targets:
                        stored.add(node.id)
                        assigned.add(node.id)
                    if id(node) not in blessed:
                        bindings[node.id] = bindings.get(node.id, 0) | _OTHER
                continue
            if kind is ast.Call:
                func = node.func
                kind_func = type(func)
                if kind_func is ast.Attribute:
                    if may_write_in_place(func.attr):
                        trigger = True
                        if params and type(func.value) is ast.Name and (
                                func.value.id in params or func.value.id in param_tensors):
                            writes_params = True
                        elif params and type(func.value) is ast.Name:
                            written.add(func.value.id)  # a parameter's alias, maybe (x = token)
                        elif params and type(func.value) is ast.Attribute and \
                                func.value.attr in LAYER_PARAMETERS and \
                                _base_name(func.value) in params and _base_name(func.value) != self_name:
                            writes_params = True  # layer.weight.mul_(...): a parameter of the module passed
                        elif param_modules and type(func.value) is ast.Attribute and \
                                type(func.value.value) is ast.Name and func.value.value.id in param_modules:
                            writes_params = True
                        if self_name is not None and (_base_name(func.value) == self_name or (
                                type(func.value) is ast.Name and func.value.id in self_tensors)):
                            writes_self = True
                    if passes is not None and type(func.value) is ast.Name and func.value.id == self_name \
                            and _passes_own(node, own_params):
                        passes.add("self." + func.attr)
                    if stores:  # a method call may change its receiver (lst.append(x))
                        base = _base_name(func.value)
                        # np.zeros(...) changes no global the analysis tracks, nor does a lambda's x.sum();
                        # a receiver counts only if the top level assigns it (see _settle_receivers)
                        if base is not None and base not in modules and base not in lambda_params:
                            receivers.add(base)
                elif kind_func is ast.Name:
                    if may_write_in_place(func.id):
                        trigger = True
                    if passes is not None and _passes_own(node, own_params):
                        passes.add(func.id)
                    names.add(func.id)
                    called.add(func.id)
                    if not lambda_params:
                        calls.add(func.id)
                    stack.extend(node.args)
                    stack.extend(node.keywords)
                    func = None
                callee = func.attr if kind_func is ast.Attribute else (node.func.id if kind_func is ast.Name else "")
                for keyword in node.keywords:
                    if keyword.arg == INPLACE_KEYWORD:
                        # also functools.partial(nn.ReLU, inplace=True), whose calls build the module in
                        # place; the analysis takes a literal True as "in place", or a parameter True by
                        # default that no call passes (inplace=inplace: see _function)
                        value = keyword.value
                        if type(value) is ast.Constant and value.value is True:
                            trigger = builds = True
                        elif type(value) is ast.Name:
                            owner.inplace_names.add(value.id)
                    elif keyword.arg == MAX_NORM_KEYWORD and _number(keyword.value):
                        # nn.Embedding(n, d, max_norm=1.0) renormalises its weight on every call, as
                        # F.embedding(i, w, max_norm=1.0) does w's rows: a module built to write in place
                        trigger = builds = True
                    elif keyword.arg == OUT_KEYWORD:
                        value = keyword.value
                        if not (type(value) is ast.Constant and value.value in (None, False)):
                            trigger = True
                if callee in true_callees:  # nn.ReLU(True); a True passed to anything else is no cue
                    owner.builds_switchable = True
                    for arg in node.args:
                        if type(arg) is ast.Constant and arg.value is True:
                            trigger = builds = True
                        elif type(arg) is ast.Name:
                            owner.inplace_names.add(arg.id)  # nn.ReLU(inplace): see _function
                if func is None:
                    continue
            elif kind is ast.Return:
                if node.value is not None and unit is owner:
                    owner.returns_value = True
            elif kind is ast.Assign or (kind is ast.AnnAssign and node.value is not None):
                value_kind = _literal_kind(node.value)
                if kind is ast.Assign and type(node.value) is ast.Constant and node.value.value is True and any(
                        type(t) is ast.Attribute and t.attr == INPLACE_KEYWORD
                        and not (type(t.value) is ast.Name and t.value.id == "self") for t in node.targets):
                    # m.inplace = True: modules built out of place may run in place (see _keep)
                    self.switches_inplace = True
                for target in (node.targets if kind is ast.Assign else (node.target,)):
                    kind_target = type(target)
                    if kind_target is ast.Name:
                        if params and triggers.alias_source(node.value, params, AST_SHAPES) is not None:
                            aliases.add(target.id)  # x = token: writing x may write the parameter
                        if value_kind:
                            blessed.add(id(target))
                            bindings[target.id] = bindings.get(target.id, 0) | value_kind
                    elif kind_target is ast.Subscript:
                        if _string_key(target):
                            blessed.add(id(target))  # d["key"] = v: a mapping entry, never a tensor write
                        elif type(target.value) is ast.Name and target.value.id not in params:
                            blessed.add(id(target))
                            soft.append((target.value.id, _STORE))
            elif kind is ast.AugAssign and type(node.target) is ast.Name and node.target.id not in params:
                target = node.target
                blessed.add(id(target))
                rhs = node.value
                soft.append((target.id, _literal_kind(rhs) or (rhs.id if type(rhs) is ast.Name else None)))
                if stores:
                    stored.add(target.id)
                if params:
                    written.add(target.id)
            elif kind is ast.AugAssign:
                trigger = True
                base = _base_name(node.target)
                if base is not None:
                    if stores:
                        stored.add(base)
                    if base in params or base in param_tensors:
                        writes_params = True
                    elif params:
                        written.add(base)
                    if self_name is not None and (base == self_name or base in self_tensors):
                        writes_self = True
            elif kind is ast.Subscript:
                if type(node.ctx) is not ast.Load:
                    base = _base_name(node.value)
                    if id(node) not in blessed:
                        trigger = True
                        if base is not None and base in params:
                            writes_params = True
                        if self_name is not None and base is not None and (
                                base == self_name or base in self_tensors):
                            writes_self = True
                    if base is not None and stores:
                        stored.add(base)
            elif kind is ast.Attribute:
                if type(node.ctx) is not ast.Load:
                    if node.attr in STORE_ATTRIBUTES:
                        trigger = True
                    if stores:
                        base = _base_name(node.value)
                        if base is not None:
                            stored.add(base)
            elif kind is ast.FunctionDef or kind is ast.AsyncFunctionDef:
                bindings[node.name] = bindings.get(node.name, 0) | _OTHER
                child = self._function(node, unit, methods_of if methods_of else None, False)
                names.update(child.names)
                called.update(child.called)
                calls.update(child.calls)
                structural = True
                continue
            elif kind is ast.ClassDef:
                bindings[node.name] = bindings.get(node.name, 0) | _OTHER
                self._class(node, unit, names)
                called.add(node.name)  # conservative: a local class may be built right here
                structural = True
                continue
            elif kind is ast.Import or kind is ast.ImportFrom:
                structural = True
                for alias in node.names:
                    local = alias.asname or alias.name.split(".")[0]
                    names.add(local)
                    bindings[local] = bindings.get(local, 0) | _OTHER
                    if alias.asname and alias.name.split(".")[-1] in true_callees:
                        true_callees.add(alias.asname)
                    if stores:
                        stored.add(local)
                continue
            elif kind is ast.For and params:
                param_tensors.update(triggers.parameter_loop_names(node.iter, node.target, params, AST_SHAPES))
                param_modules.update(triggers.module_loop_names(node.iter, node.target, params, AST_SHAPES))
                if self_name is not None:
                    self_tensors.update(triggers.parameter_loop_names(node.iter, node.target, {self_name},
                                                                      AST_SHAPES))
            elif kind is ast.Global or kind is ast.Nonlocal:
                names.update(node.names)
                self.declared.update(node.names)
            elif stores and kind in _COMPREHENSIONS:
                for generator in node.generators:
                    local_targets.update(id(n) for n in ast.walk(generator.target) if type(n) is ast.Name)
            elif kind is ast.ExceptHandler or kind is _MATCH_AS or kind is _MATCH_STAR:
                if node.name:
                    bindings[node.name] = bindings.get(node.name, 0) | _OTHER
            elif kind is _MATCH_MAPPING:
                if node.rest:
                    bindings[node.rest] = bindings.get(node.rest, 0) | _OTHER
            for name in _CHILD_FIELDS.get(kind) or _child_fields(kind):
                value = getattr(node, name, None)
                if value is None:
                    continue
                if type(value) is list:
                    stack.extend(value)
                else:
                    stack.append(value)
        owner.trigger = trigger
        owner.builds_inplace_module = builds
        if writes_params or aliases & written:
            owner.writes_params = True
        if writes_self:
            owner.writes_self = True
        if isinstance(owner, _Statement):
            owner.structural = structural

    def _add_names(self, part: _Part, tree: ast.AST) -> None:
        kind = type(tree)
        if kind is ast.Constant:  # most defaults (None, 0.1, True): no name in them
            return
        if kind is ast.Name:
            part.names.add(tree.id)
            self.noncall.add(tree.id)
            return
        for node in ast.walk(tree):
            if type(node) is ast.Name:
                part.names.add(node.id)
                self.noncall.add(node.id)  # conservative: a header's call counts as a plain mention


# Fields that never hold a node worth visiting (names, flags, operators, contexts).
_LEAF_FIELDS = frozenset({
    "ctx", "op", "ops", "type_comment", "type_ignores", "kwd_attrs", "attr", "id", "arg", "name", "names",
    "module", "level", "kind", "is_async", "simple", "conversion",
})
_CHILD_FIELDS: Dict[type, Tuple[str, ...]] = {}


def _child_fields(kind: type) -> Tuple[str, ...]:
    fields = tuple(f for f in getattr(kind, "_fields", ()) if f not in _LEAF_FIELDS)
    if kind is ast.Constant:
        fields = ()
    fields = fields or ("",)  # never empty, so that the cache answers next time ("" finds nothing)
    _CHILD_FIELDS[kind] = fields
    return fields


class _AstShapes(triggers.Shapes):
    """How ``ast`` spells the shapes inplace_lint.syntax.triggers reads."""

    def name(self, node):
        return node.id if type(node) is ast.Name else None

    def method_call(self, node):
        if type(node) is ast.Call and type(node.func) is ast.Attribute:
            return node.func.value, node.func.attr, bool(node.args)
        return None

    def function_call(self, node):
        if type(node) is ast.Call and type(node.func) is ast.Name:
            return node.func.id, node.args
        return None

    def elements(self, node):
        return node.elts if type(node) in (ast.Tuple, ast.List) else None

    def branches(self, node):
        return (node.body, node.orelse) if type(node) is ast.IfExp else None


AST_SHAPES = _AstShapes()


def _literal_kind(node: ast.AST) -> int:
    """_SCALAR for a literal (``0``, ``-1.5``, ``"a"``, ``2 ** 10``), _CONTAINER for a display or a
    comprehension (``{}``, ``[x]``, ``()``, ``[0] * 4``), 0 for anything that may be a tensor."""
    kind = type(node)
    if kind is ast.Constant:
        return _SCALAR
    if kind in _DISPLAYS:
        return _CONTAINER
    if kind is ast.UnaryOp:
        return _SCALAR if _literal_kind(node.operand) == _SCALAR else 0
    if kind is ast.BinOp:
        left, right = _literal_kind(node.left), _literal_kind(node.right)
        if left and right:
            return _CONTAINER if _CONTAINER in (left, right) else _SCALAR
    return 0


def _number(node: ast.AST) -> bool:
    """A literal number, as the analysis reads ``max_norm`` (``1.0``, ``-2``, and a bool: torch renormalises
    to ``float(max_norm)`` whenever it is not None)."""
    if type(node) is ast.UnaryOp and type(node.op) in (ast.USub, ast.UAdd):
        node = node.operand
    return type(node) is ast.Constant and type(node.value) in (int, float, bool)


def _string_key(node: ast.Subscript) -> bool:
    """``d["key"]`` (the analysis's ``is_mapping_key``): a string cannot index a tensor."""
    key = node.slice
    return (type(key) is ast.Constant and isinstance(key.value, str)) or type(key) is ast.JoinedStr


def _discharged(soft: List[Tuple[str, object]], bindings: Dict[str, int], unsafe: Set[str],
                once: Iterable[str], judged: Optional[List[Tuple[str, object]]] = None) -> bool:
    """Do all these soft triggers write no tensor? Each name must be bound only to literals of one kind
    (never a parameter, a global or a name declared global/nonlocal), and each ``name op= rhs`` must keep
    it so: a literal rhs, or a name that is itself such a number/container. ``judged``: the triggers to
    answer for, when ``soft`` holds more (the top level's earlier ones)."""
    kinds = {name: bits for name, bits in bindings.items() if bits in (_SCALAR, _CONTAINER) and name not in unsafe}
    changed = True
    while changed:
        changed = False
        for name, rhs in soft:
            kind = kinds.get(name)
            if kind is None or rhs is _STORE:
                continue
            if type(rhs) is str:
                rhs = kinds.get(rhs, 0)
            if rhs is None:
                good = kind == _CONTAINER and name in once
            else:
                good = rhs == _SCALAR if kind == _SCALAR else rhs in (_SCALAR, _CONTAINER)
            if not good:
                del kinds[name]
                changed = True
    # a store needs a container; an op= needs the name to have kept its literal kind
    return all(kinds.get(name) == _CONTAINER if rhs is _STORE else name in kinds
               for name, rhs in (soft if judged is None else judged))


def _base_name(node: ast.AST) -> Optional[str]:
    while True:
        kind = type(node)
        if kind is ast.Attribute or kind is ast.Subscript or kind is ast.Starred:
            node = node.value
        elif kind is ast.Call:
            node = node.func
        elif kind is ast.Name:
            return node.id
        else:
            return None


def _terminal(node: ast.AST) -> str:
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Subscript):  # Generic[...] style bases
        return _terminal(node.value)
    return ""


@dataclass
class Selection:
    """What :func:`select` decided for one file."""

    source: Optional[str]  # the reduced text; None: no finding is possible, no LibCST parse needed
    kept: int = 0  # functions whose body is kept
    total: int = 0  # all functions
    # 1-based lines of ``source`` where a top-level statement starts (a decorated definition at its first
    # decorator), or None when unknown: the language server parses and caches the text in these pieces,
    # and a lint positions a statement at a time from them (engine.StatementPositions)
    starts: Optional[List[int]] = None
    tree: Optional[ast.Module] = None  # the ``ast`` tree of the whole text, when it parsed
    # how ``source`` differs from the text of ``tree``: inplace_lint.syntax.cst_from_ast builds the reduced text's
    # tree from ``tree`` with these, without parsing the reduced text again
    reductions: Optional["Reductions"] = None

    @property
    def skip(self) -> bool:
        return self.source is None


_NO_PYTHON_RUNS_IT = frozenset({"too many nested parentheses", "too many levels of indentation",
                                "too many statically nested blocks"})


_BACKWARD_FUNCTION = ".".join(triggers.BACKWARD_FUNCTION.split(".")[-2:])  # autograd.grad, as written
_BACKWARD_CALLS = (("." + triggers.BACKWARD_METHOD, re.compile(r"\." + triggers.BACKWARD_METHOD + r"\s*\(")),
                   (_BACKWARD_FUNCTION, re.compile(r"(?<!\w)" + re.escape(_BACKWARD_FUNCTION) + r"\s*\(")))


def runs_backward(source: str) -> bool:
    """Does the file's whole text run a backward anywhere (a training loop the reduced text blanks counts)?
    Hooks put on every module of a class count as recording grad then (inplace_lint.analysis)."""
    # each spelling's regex tried only where its literal occurs: one regex with an alternation scans a
    # file ten times slower than ``str.find`` (3 % of a lint of timm)
    for literal, call in _BACKWARD_CALLS:
        at = source.find(literal)
        while at >= 0:
            if call.match(source, at):
                return True
            at = source.find(literal, at + 1)
    return False


def select(source: str, tree: Optional[ast.Module] = None) -> Selection:
    """The line-preserving reduced text of ``source`` (see the module docstring).

    Text that ``ast`` cannot parse comes back unchanged, so that LibCST reports the error as before.
    """
    if tree is None:
        try:
            tree = parse_quietly(source)
        except SyntaxError as error:
            if error.msg in _NO_PYTHON_RUNS_IT:
                # CPython's limits: no interpreter runs this, and LibCST would take minutes on it

                line = error.lineno or 1
                raise LintError(f"cannot parse: {error.msg} (line {line})", line,
                                max((error.offset or 1) - 1, 0)) from None
            return Selection(source)
        except (ValueError, RecursionError, MemoryError, TypeError):
            return Selection(source)
    try:
        scanner = _Scanner()
        scanner.scan(tree)
        if not scanner.imports_torch:
            return Selection(None, 0, len(scanner.units))
        kept, kept_top, kept_class, witnesses = _keep(scanner, source)
    except RecursionError:
        return Selection(source)
    total = len(scanner.units)
    top_trigger = any(t.trigger for t in scanner.top)
    if not kept and not top_trigger:
        return Selection(None, 0, total)
    dropped: List[Tuple[Optional[ast.AST], List[ast.AST]]] = []
    for unit in scanner.units:
        if unit not in kept and (unit.parent is None or unit.parent in kept):
            dropped.append((unit.node, unit.node.body))
    top_runs = _runs(tree.body, scanner.top, kept_top)
    dropped.extend(top_runs)
    for statement in scanner.class_statements:
        # in a function not kept, the statement's text is blanked with that function's body already
        if statement not in kept_class and (statement.unit is None or statement.unit in kept):
            dropped.append((None, [statement.node]))
    tables = [t.node.value for t in scanner.top if t in kept_top and _literal_table(t.node)]
    starts = _top_starts(tree.body, top_runs)
    if not dropped and not tables:
        return Selection(source, len(kept), total, starts, tree)
    reductions = Reductions(witnesses=list(witnesses))
    reduced = _reduce(source, dropped, tables, reductions)
    # a run _reduce left as it was (it could not blank it) keeps all its statements
    starts = _top_starts(tree.body, [run for run in top_runs if id(run[1][0]) in reductions.runs])
    if witnesses:
        # One more use of each such function, after the last line (no line moves): the analysis's
        # "only ever called directly" count stays false, whatever mentions were blanked.
        ending = "" if not reduced or reduced.endswith(("\n", "\r")) else "\n"
        lines = len(lines_with_breaks(reduced))  # the witnesses start on the line after the last
        starts = starts + [lines + 1 + index for index in range(len(witnesses))]
        reduced += ending + "".join(f"{name}\n" for name in witnesses)
    return Selection(reduced, len(kept), total, starts, tree, reductions)


@dataclass
class Reductions:
    """What :func:`_reduce` did to the text, by the ``ast`` nodes it blanked: each run of statements that
    became one ``pass`` or one string statement (by the id of its first statement: "pass" on a line of its
    own, "inline pass" after a colon, or "string"), the ids of the run's other statements, the literal
    tables whose value became a one-string tuple, and the names appended as statements at the end."""

    runs: Dict[int, str] = field(default_factory=dict)
    inside_runs: Set[int] = field(default_factory=set)
    tables: Set[int] = field(default_factory=set)
    witnesses: List[str] = field(default_factory=list)


def _top_starts(body: List[ast.AST], top_runs: List[Tuple[None, List[ast.AST]]]) -> List[int]:
    """Where the top-level statements of the reduced text start: a run blanked (``top_runs``) becomes one
    statement, so only its first statement's line counts."""
    inside = {id(node) for _owner, run in top_runs for node in run[1:]}
    starts, previous_end = [], 0
    for node in body:
        first, _last = _span(node)
        # ``print((1,\n 2)); SCALE = 2``: a statement after a semicolon shares its line with the one before
        # it, and LibCST keeps both in one statement line
        if id(node) not in inside and first != previous_end:
            starts.append(first)
        previous_end = node.end_lineno
    return starts


def _runs(
    body: List[ast.AST], statements: List[_Statement], kept: Set[_Statement]
) -> List[Tuple[None, List[ast.AST]]]:
    """Maximal runs of dropped statements that are neighbours in ``body``."""
    dropped = {id(s.node) for s in statements if s not in kept}
    runs: List[Tuple[None, List[ast.AST]]] = []
    current: List[ast.AST] = []
    for node in body:
        if id(node) in dropped:
            current.append(node)
        elif current:
            runs.append((None, current))
            current = []
    if current:
        runs.append((None, current))
    return runs


class _LeaveLambda:
    """Stack marker: the walk leaves a lambda's body; restore the flags from before it."""

    __slots__ = ("state",)

    def __init__(self, state):
        self.state = state


_IDENTIFIER = re.compile(r"[A-Za-z_]\w*")
_WORD = re.compile(r"(?<![\w])[A-Za-z_]\w*")


# Names a file is searched for one by one before one index of every word in it is built instead: a
# search is one fast scan for the name's text, the index a slow pass over every word; most files ask
# for a handful of names, a file of thousands of functions asks for thousands.
_INDEX_AFTER = 32


class _Mentions:
    """Which parts contain a name anywhere in their text (a superset of LibCST's ``Name`` nodes:
    attributes, keywords and parameters included, and strings and comments too). A name is found where
    it stands as a whole word (not preceded or followed by a letter, digit or underscore)."""

    def __init__(self, source: str, parts: List[Tuple[_Part, int, int]]):
        self.source = source
        self.parts = parts  # (part, first line, last line), 1-based
        self.lines: Optional[LineIndex] = None  # built on the first search that needs it
        self._index: Optional[Dict[str, List[int]]] = None
        self._found: Dict[str, List[_Part]] = {}  # name -> the parts with it, as answered
        self._line_parts: Optional[Dict[int, List[int]]] = None

    def parts_with(self, name: str) -> List[_Part]:
        found = self._found.get(name)
        if found is None:
            found = self._found[name] = self._parts_on_lines(self._lines_with(name))
        return found

    def _lines_with(self, name: str) -> Iterable[int]:
        if _IDENTIFIER.fullmatch(name) and (self._index is not None or len(self._found) >= _INDEX_AFTER):
            return self._identifier_lines().get(name, ())
        source = self.source
        offsets = []
        for match in re.finditer(re.escape(name) + r"(?!\w)", source):  # a literal first: a fast search
            start = match.start()
            if start == 0 or not (source[start - 1].isalnum() or source[start - 1] == "_"):
                offsets.append(start)
        if not offsets:
            return ()
        if self.lines is None:
            self.lines = LineIndex(source)
        return sorted({self.lines.line_of(offset) for offset in offsets})

    def _identifier_lines(self) -> Dict[str, List[int]]:
        """Every identifier-like word of the text -> the sorted lines it occurs on (built once: asking per
        name by scanning the text is quadratic in files of thousands of functions). The same lines as a
        search: a word is a maximal run of letters, digits and underscores."""
        if self._index is None:
            index: Dict[str, List[int]] = {}
            for number, line in enumerate(split_lines(self.source), 1):
                for word in set(_WORD.findall(line)):
                    index.setdefault(word, []).append(number)
            self._index = index
        return self._index

    def _parts_on_lines(self, lines) -> List[_Part]:
        """The parts (in their order) whose line range holds one of ``lines``; parts may nest."""
        if not lines:
            return []
        if self._line_parts is None:
            by_line: Dict[int, List[int]] = {}
            for index, (_part, first, last) in enumerate(self.parts):
                for line in range(first, last + 1):
                    by_line.setdefault(line, []).append(index)
            self._line_parts = by_line
        indices = set()
        for line in lines:
            indices.update(self._line_parts.get(line, ()))
        return [self.parts[index][0] for index in sorted(indices)]


def _span(node: ast.AST) -> Tuple[int, int]:
    first = node.lineno
    for decorator in getattr(node, "decorator_list", ()):
        first = min(first, decorator.lineno)
    return first, node.end_lineno




def _hands_to_autograd(node: ast.AST, name: str) -> bool:
    """Does ``node`` hand the function ``name`` to such an API (``jacobian(name, x)``)?"""
    for call in ast.walk(node):
        if type(call) is ast.Call and call.args and type(call.args[0]) is ast.Name and call.args[0].id == name:
            func = call.func
            last = func.attr if type(func) is ast.Attribute else func.id if type(func) is ast.Name else ""
            if last in triggers.AUTOGRAD_CALLER_SHORT_NAMES:
                return True
    return False


def _keep(s: _Scanner, source: str) -> Tuple[Set[_Unit], Set[_Statement], Set[_Statement], List[str]]:
    """The kept units, top-level statements and class-level statements, and the witnesses to append.

    *Live* units are those whose own findings matter (they may write in place, or their return summary
    feeds a live caller); other units are kept only for what they hand to others (``self`` attributes,
    call-site values, no_grad call facts), for which what their own callees return does not matter.
    """
    units = s.units
    # module classes whose forward writes what it is passed (x += self.pos): a script that builds one may
    # hand it a tensor saved before, as if its top level wrote in place itself
    forward_writers = {name for name, forwards in s.class_forwards.items()
                       if any(f.writes_params for f in forwards)}
    # custom autograd Functions whose forward writes an input in place (``ctx.mark_dirty(x)``): each
    # ``Fn.apply(h)`` writes the caller's tensor, as in-place syntax would
    dirty_functions = {f.class_name for f in s.autograd_forwards if f.writes_params and f.class_name}
    if s.switches_inplace:
        # ``for m in self.modules(): m.inplace = True``: a module built out of place anywhere in the file
        # may be switched in place (inplace_lint.analysis.InplaceFlip), as if built so
        for part in units + s.top:
            if part.builds_switchable:
                part.trigger = part.builds_inplace_module = True
    # module-level functions that write what they are passed (``def swiglu_(a, b): a.mul_(...)``): a top
    # level calling one writes in place itself, and its backward must be seen
    param_writers = {u.name for u in units if u.module_level and u.writes_params}
    top_trigger = any(t.trigger or t.called & forward_writers or t.called & param_writers
                      or t.names & dirty_functions for t in s.top)
    live: Set[_Unit] = {u for u in units if u.trigger or u.builds_inplace_module or u.names & dirty_functions}
    for forward in s.autograd_forwards:  # what apply() saves: keep the whole forward, nested defs too
        stack = [forward]
        while stack:
            unit = stack.pop()
            live.add(unit)
            stack.extend(unit.children)
    if not live and not top_trigger:
        return set(), set(), set(), []
    kept: Set[_Unit] = set(live)
    tainted: Set[_Unit] = {u for u in units if u.builds_inplace_module}
    # a module class whose forward writes what it is passed (x += self.pos) writes its callers' tensors, as
    # an in-place module does: its __init__ taints as building one would
    for name in forward_writers:
        tainted.update(s.class_inits.get(name, ()))
    kept_top: Set[_Statement] = {t for t in s.top if t.structural or top_trigger}
    kept_class: Set[_Statement] = {c for c in s.class_statements if c.structural}

    module_functions: Dict[str, List[_Unit]] = {}
    for unit in units:
        if unit.module_level:
            module_functions.setdefault(unit.name, []).append(unit)
    spans = [(u, *_span(u.node)) for u in units] + [(t, *_span(t.node)) for t in s.top]
    mentions = _Mentions(source, spans + [(c, *_span(c.node)) for c in s.class_statements])
    followed: Dict[str, List[_Part]] = {}  # kept functions whose every mention is kept -> those parts
    witnesses: Set[str] = set()  # kept functions never refined: a mention appended keeps it so
    methods_followed: Set[_Unit] = set()
    built_followed: Set[str] = set()  # classes whose mentions were kept, or witnessed (see below)
    mentioned: Set[_Unit] = set()  # units kept because they mention a kept module-level function
    mentioned_top: Set[_Statement] = set()  # top-level statements kept for the same reason
    providers: Set[_Unit] = set()  # module-level functions whose return value such a part passes on
    tainted_globals: Set[str] = set()

    def named_methods(class_name: str, part: _Part) -> List[_Unit]:
        """The methods of ``class_name`` (not yet live, ``__init__`` aside) that return a value and that
        ``part`` names: the analysis summarises what each returns (a tensor it saved, a view it made
        under no_grad, split outputs) for the part's calls of it."""
        return [method for method in s.class_methods.get(class_name, ())
                if method.returns_value and method not in live and method.name != "__init__"
                and part in mentions.parts_with(method.name)]

    def reach(classes: Set[str]) -> Set[str]:
        """Classes whose instances may be held, through the ``self`` attributes their __init__ builds."""
        out = set()
        todo = [c for c in classes if c in s.class_names]
        while todo:
            name = todo.pop()
            if name in out:
                continue
            out.add(name)
            for init in s.class_inits.get(name, ()):
                todo.extend(c for c in init.called if c in s.class_names and c not in out)
        return out

    while True:
        before = (len(kept), len(live), len(tainted), len(tainted_globals), len(kept_top), len(kept_class))
        # taint: classes whose __init__ may hold an in-place module, globals assigned from one
        tainted_classes = {name for name, inits in s.class_inits.items() if any(u in tainted for u in inits)}
        for statement in s.top:
            if statement.builds_inplace_module or (statement.called & tainted_classes) or \
                    (statement.names & tainted_globals):
                tainted_globals |= statement.stores
                for name in statement.names & module_functions.keys():
                    tainted.update(module_functions[name])
        for unit in units:
            if unit in tainted:
                continue
            if (unit.class_name is not None and unit.class_name in tainted_classes) or \
                    (unit.called & tainted_classes) or (unit.names & tainted_globals):
                tainted.add(unit)
        for unit in list(tainted):
            for name in unit.names & module_functions.keys():
                tainted.update(module_functions[name])
        live |= tainted
        kept |= live
        # enclosing functions of kept nested ones
        for unit in list(kept):
            parent = unit.parent
            while parent is not None and parent not in kept:
                kept.add(parent)
                parent = parent.parent
        # a kept module-level function that writes its parameters, or that the analysis may refine from
        # its call sites (only ever called directly): every part naming it is kept, so that its callers
        # see the same writes and pass the same values, and the analysis counts the same uses
        for name in {u.name for u in kept if u.module_level} - followed.keys() - witnesses:
            functions = module_functions[name]
            if not any(f in live or f in mentioned for f in functions):
                # kept only because a function nested in it is: with no in-place syntax of its own it
                # has no finding, and nested functions are analysed as units of their own, so what its
                # callers pass changes nothing (asked again if it becomes a caller itself)
                continue
            writes = any(f.writes_params for f in functions)
            if name in s.noncall:
                witnesses.add(name)  # passed around somewhere: never refined, its callers do not matter
                # ... except to torch, which calls it with tensors that require grad
                # (``jacobian(func, x)``: analysis._autograd_callbacks): those parts are kept
                for part in mentions.parts_with(name):
                    if _hands_to_autograd(part.node, name):
                        if isinstance(part, _Unit):
                            kept.add(part)
                        elif part.top:
                            kept_top.add(part)
                if not writes:
                    continue
                # ... but where it is called, it writes what it is passed: those parts are kept, and
                # ``table = [Info(sample=f)]`` is not
                parts = [part for part in mentions.parts_with(name) if name in part.calls]
            else:
                followed[name] = parts = mentions.parts_with(name)
            for part in parts:
                if isinstance(part, _Unit):
                    kept.add(part)
                    mentioned.add(part)
                    if writes:
                        live.add(part)  # a call writes in place there
                elif part.top:
                    kept_top.add(part)
                    mentioned_top.add(part)
                else:
                    kept_class.add(part)
        # a live unit's callees may return a tensor they saved ("return summaries"): the module-level
        # functions it calls, and the forward of every user module it may hold
        global_classes = set()
        for statement in kept_top:
            global_classes |= statement.called
        for unit in list(live):
            for name in unit.called:
                for callee in module_functions.get(name, ()):
                    if callee.returns_value:
                        live.add(callee)
            holds = set(unit.called) | global_classes
            if unit.class_name is not None:
                for init in s.class_inits.get(unit.class_name, ()):
                    holds |= init.called
            if unit.module_level and unit.name in followed:  # its parameters may be refined to them
                for part in followed[unit.name]:
                    holds |= part.called
            for name in reach(holds):
                for forward in s.class_forwards.get(name, ()):
                    if forward.returns_value:
                        live.add(forward)
                live.update(named_methods(name, unit))  # policy.act(obs): of a module it may hold
            if unit.class_name is not None:
                live.update(named_methods(unit.class_name, unit))  # g = self.gate(x): of its own class
        if top_trigger:
            for statement in s.top:
                for name in statement.called:
                    for callee in module_functions.get(name, ()):
                        if callee.returns_value:
                            live.add(callee)
                for name in reach(statement.called):
                    for forward in s.class_forwards.get(name, ()):
                        if forward.returns_value:
                            live.add(forward)
                    live.update(named_methods(name, statement))
        kept |= live
        # a part kept for what it passes a kept function (call-site refinement) passes what its own
        # callees return: a plain function's parameter requires grad only by what its calls pass, and a
        # callee returning only values that require no grad (``betas_for_alpha_bar(n)``, a schedule)
        # passes none; its own callees decide that in turn
        for part in list(mentioned) + list(mentioned_top) + list(providers):
            for name in part.called:
                for callee in module_functions.get(name, ()):
                    if callee.returns_value and callee not in providers:
                        providers.add(callee)
                        kept.add(callee)
        # a method is analysed again as no_grad code when every self.<method>() call of its class runs
        # under no_grad (through any number of calls): the methods of its class that name a kept method
        # are kept, transitively
        for unit in list(kept):
            if unit.class_name is not None and unit not in methods_followed:
                methods_followed.add(unit)
                siblings = s.class_methods.get(unit.class_name, ())
                for part in mentions.parts_with(unit.name):
                    if part in siblings:
                        kept.add(part)
                        if unit.writes_params:
                            live.add(part)  # self.<unit>(y) writes y in place there
                    elif (unit.writes_self or unit.writes_params) and unit.name != "__init__":
                        # critic.clip_weights(c) from outside the class writes the critic's parameters,
                        # scaler.scale_loss(loss) the loss it is passed
                        if isinstance(part, _Unit):
                            kept.add(part)
                            live.add(part)
                        elif part.top:
                            kept_top.add(part)
        # a kept __init__ with a parameter defaulting to a layer class (act_layer=nn.ReLU) is refined by what
        # the calls building its class pass (inplace_lint.analysis._refinable_classes): every part naming the
        # class is kept, so that the analysis joins the same calls
        for init in [u for u in kept if u.name == "__init__" and u.layer_defaults and u.class_name]:
            if init.class_name in built_followed:
                continue
            built_followed.add(init.class_name)
            if init.class_name in s.noncall:
                # also named other than in a call (a base, passed around): never refined, and a mention
                # appended after the last line keeps it so whatever mentions were blanked
                witnesses.add(init.class_name)
                continue
            for part in mentions.parts_with(init.class_name):
                if isinstance(part, _Unit):
                    kept.add(part)
                elif part.top:
                    kept_top.add(part)
                else:
                    kept_class.add(part)
        # top-level statements that may set a global a kept part reads. A block kept only for the imports
        # or definitions in it counts only if it also sets such a global: its other names do not matter
        needed: Set[str] = set()
        called: Set[str] = set()
        counted = [part for part in kept_top if top_trigger or not part.structural or part in mentioned_top]
        for part in list(kept) + counted:
            needed |= part.names
            called |= part.called
        counted_set = set(counted)
        grown = True
        while grown:
            grown = False
            for statement in s.top:
                if statement not in counted_set and statement.stores & needed:
                    kept_top.add(statement)
                    counted_set.add(statement)
                    needed |= statement.names
                    called |= statement.called
                    grown = True
        # the module-level functions decorating a kept unit: whether they turn grad off is read in their body
        decorating = {name for u in kept for name in u.decorators}
        stack = [u for u in units if u.module_level and u.class_name is None and u.name in decorating] \
            if decorating else []
        while stack:  # with the wrappers nested in them
            unit = stack.pop()
            kept.add(unit)
            stack.extend(unit.children)
        # __init__ of the classes of kept methods and of classes a kept part builds (``Block()``): their
        # ``self`` attributes are read through ``self.x`` and ``Block().x``
        classes = {u.class_name for u in kept if u.class_name is not None}
        classes |= called & s.class_names
        for name in classes:
            for init in s.class_inits.get(name, ()):
                kept.add(init)
        after = (len(kept), len(live), len(tainted), len(tainted_globals), len(kept_top), len(kept_class))
        if after == before:
            break
    return kept, kept_top, kept_class, sorted(witnesses)


_TABLE_LINES = 10


def _literal_table(statement: ast.AST) -> bool:
    """``NAME = {...}`` spanning many lines of nothing but literals (torch ships a 7,000-line one): the
    analysis sees a container of non-tensors whatever its entries, and so it does in a one-string tuple
    spanning the same lines."""
    if type(statement) not in (ast.Assign, ast.AnnAssign) or statement.value is None:
        return False
    value = statement.value
    if type(value) not in _DISPLAYS[:4] or value.end_lineno - value.lineno < _TABLE_LINES:
        return False
    stack = [(value, False)]
    while stack:
        node, in_key = stack.pop()
        kind = type(node)
        if kind is ast.Dict:
            if None in node.keys:
                return False
            stack.extend((v, in_key) for v in node.values)
            # keys are evaluated and dropped: names there (``(0, torch.int8)``) are harmless
            stack.extend((k, True) for k in node.keys)
        elif kind is ast.Tuple or kind is ast.List or kind is ast.Set:
            stack.extend((e, in_key) for e in node.elts)
        elif kind is ast.UnaryOp:
            stack.append((node.operand, in_key))
        elif kind is not ast.Constant and not (in_key and _dotted(node)):
            return False
    return True


def _dotted(node: ast.AST) -> bool:
    while type(node) is ast.Attribute:
        node = node.value
    return type(node) is ast.Name


def _reduce(source: str, dropped: List[Tuple[Optional[ast.AST], List[ast.AST]]],
            tables: Iterable[ast.AST], done: Reductions) -> str:
    """Blank out each run of statements, and the entries of each literal table (a one-string tuple
    spanning its lines), keeping every line (and so every other line's number). ``done`` records what
    was blanked."""
    lines = lines_with_breaks(source)
    for value in tables:
        start, end = value.lineno - 1, value.end_lineno - 1
        if end >= len(lines):
            continue
        done.tables.add(id(value))
        head = lines[start].encode("utf-8")[: value.col_offset].decode("utf-8", "replace")
        tail = lines[end].encode("utf-8")[value.end_col_offset:].decode("utf-8", "replace")
        lines[start] = head + '("""' + _ending(lines[start])
        for index in range(start + 1, end):
            lines[index] = _ending(lines[index])
        lines[end] = '""",)' + tail
    for owner, body in dropped:
        first, last = body[0], body[-1]
        start, end = first.lineno - 1, last.end_lineno - 1
        for decorator in getattr(first, "decorator_list", ()):  # a decorated def starts at its decorator
            start = min(start, decorator.lineno - 1)
        if start >= len(lines) or end >= len(lines):
            continue
        line = lines[start]
        head = line.encode("utf-8")[: first.col_offset].decode("utf-8", "replace")
        if start == first.lineno - 1 and head.strip():
            # the statements share their first line with something kept: ``def f(x): return x``
            if start != end or owner is None:
                continue  # rare (``a = 1; b = 2`` across lines): keep the text as it is
            tail = lines[end].encode("utf-8")[last.end_col_offset:].decode("utf-8", "replace")
            lines[start] = head + "pass" + tail
            _record(done, body, "inline pass")
            continue
        indent = line[: len(line) - len(line.lstrip(" \t\f"))]
        if end + 1 < len(lines) and _starts_on(last, lines[end]):
            continue  # something else starts on the last line (``x = 1; y = 2``): leave the text alone
        if start == end:
            lines[start] = indent + "pass" + _ending(line)
            _record(done, body, "pass")
            continue
        _record(done, body, "string")
        lines[start] = indent + '"""' + _ending(line)
        for index in range(start + 1, end):
            lines[index] = _ending(lines[index])
        lines[end] = '"""' + _ending(lines[end])
    return "".join(lines)


def _record(done: Reductions, body: List[ast.AST], how: str) -> None:
    done.runs[id(body[0])] = how
    done.inside_runs.update(id(node) for node in body[1:])


def _starts_on(last: ast.AST, line: str) -> bool:
    """Does code follow ``last`` on its last line (after a semicolon)?"""
    tail = line.encode("utf-8")[last.end_col_offset:].decode("utf-8", "replace").strip()
    rest = tail.lstrip(";").lstrip()
    return tail.startswith(";") and tail.strip("; \t\r\n") != "" and not rest.startswith("#")


def _ending(line: str) -> str:
    if line.endswith("\r\n"):
        return "\r\n"
    if line.endswith(("\n", "\r")):
        return line[-1]
    return ""
