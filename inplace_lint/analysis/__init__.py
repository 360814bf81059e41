"""The analysis: find the analysable units of a module, interpret each, report what it found as typed
events (inplace_lint.model.events); the rules (inplace_lint.rules) turn those into findings."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, FrozenSet, Iterable, List, Optional, Set, Tuple

import libcst as cst

from inplace_lint.analysis import semantics as sem
from inplace_lint.analysis.dataflow import (
    FunctionEntry, Hazard, Interpreter, ModuleContext, Unit, WriteNotes,
)
from inplace_lint.analysis.parameters import (
    SELF_ATTRIBUTE, container_parameters, parameter_list, parameter_writes,
)
from inplace_lint.model import debug
from inplace_lint.syntax.docstrings import declared_non_tensors
from inplace_lint.syntax.names import ImportMap, code_positions, dotted, is_docstring, walk
from inplace_lint.syntax.triggers import (
    AUTOGRAD_CALLER_FUNCTIONS, AUTOGRAD_CALLER_MODULES, INPLACE_KEYWORD, MAX_NORM_KEYWORD,
)
from inplace_lint.analysis.naming import looks_like_count, looks_like_inference, looks_like_integer_tensor
from inplace_lint.analysis.values import (
    ANNOTATED, ASSUMED, AUTOGRAD_CALLBACK, CALLERS_PASS, CONTAINER, MAYBE, METHOD_INPUT, MODULE, NO, OPTIMIZER,
    OTHER, OTHER_VAL, PARAMS, UNKNOWN, YES, GradOrigin, NogradViewReturn, State, Val, replace,
)
from inplace_lint.model.events import MultiViewWrite, NogradViewWrite, StaleSave, WriteEvent
from inplace_lint.model.findings import LintOptions
from inplace_lint.model.records import Record
from inplace_lint.knowledge import VIEW_METHODS, load
from inplace_lint.syntax.select import runs_backward

NN_MODULE_BASES = {"torch.nn.Module", "torch.nn.modules.module.Module"}
AUTOGRAD_FUNCTION_BASES = {"torch.autograd.Function", "torch.autograd.function.Function"}
OPTIMIZER_BASES = {"torch.optim.Optimizer", "torch.optim.optimizer.Optimizer"}


class Analysis(Record):
    """What the analysis of one module found: its events (inplace_lint.model.events), in the order found,
    with what turning them into findings needs -- the module's positions, the parse (``module`` of
    ``parsed_text``), how to render a node (``code``) and an ``m.inplace = True`` flip, if any."""

    events: list
    positions: object
    module: object
    parsed_text: str
    code: object  # node (or text), limit=60 -> its source on one line, shortened
    inplace_flip: object = None  # the InplaceFlip switching modules in place after they were built


def analyse(module: cst.Module, source: str, options: LintOptions, parsed_text: Optional[str] = None,
            positions=None) -> Optional[Analysis]:
    """The events of ``module``, parsed from ``parsed_text`` (``source`` itself, or the line-preserving
    reduced text inplace_lint.syntax.select made of it); None when there are none. ``positions``: the
    module's LibCST positions when the caller has them, or computes them a top-level statement at a time
    (the language server keeps them per piece; a lint positions the statements holding the findings:
    engine.StatementPositions)."""
    ctx = interpret_module(module, options, file_runs_backward=runs_backward(source))
    if ctx is None or not ctx.hazards:
        return None
    if positions is None:
        positions = code_positions(module)
    elif hasattr(positions, "prefer"):  # positioned a statement at a time: those of the findings first
        units = {hazard.unit for hazard in ctx.hazards.values()}
        positions.prefer(statement for statement in module.body
                         if statement in units or (type(statement) is cst.ClassDef and any(
                             method in units for method in _block(statement.body))))
    events = [_event(ctx, hazard) for hazard in ctx.hazards.values()]
    return Analysis(events, positions, module, parsed_text if parsed_text is not None else source, ctx.code,
                    ctx.inplace_flip)


def _event(ctx: ModuleContext, hazard: Hazard) -> WriteEvent:
    """The event of ``hazard``, with the facts every analysis of its write noted."""
    write = hazard.write
    site = write.site
    notes = ctx.write_notes.get(site) or WriteNotes()
    base_text, base_shared = ("", True) if notes.base_text is None else (notes.base_text, notes.base_shared)
    helper = notes.helper
    private = helper if notes.private_args and notes.private_in_helper else None
    facts = dict(write=write, unit=hazard.unit, base_text=base_text, base_shared=base_shared,
                 shared=True if notes.shared is None else notes.shared, holders=notes.holders,
                 private_helper=private, helper_calls=ctx.helper_calls.get(helper, 0) if private else 0,
                 grad_origin=hazard.grad_origin)
    if hazard.kind is not StaleSave:
        if hazard.kind in (MultiViewWrite, NogradViewWrite):
            facts["fill"] = hazard.fill
        if hazard.kind is MultiViewWrite:
            facts.update(origin=hazard.multiview, siblings=hazard.siblings)
        return hazard.kind(**facts)
    save = hazard.save
    if save is not None:
        origin = ctx.param_save_origin.get(save.site)
        facts.update(save=save, save_node=ctx.site_nodes.get(save.site),
                     inner_op=ctx.argument_save_sites.get(save.site),
                     saved_operands=tuple(ctx.param_save_operands.get(origin, ())))
    return StaleSave(**facts, hook=notes.hook, outside_calls=tuple(notes.outside_calls), reached_by=hazard.reached_by)


def has_hazards(module: cst.Module, options: LintOptions, built) -> bool:
    """Does the analysis find any hazard in ``module``, a tree that inplace_lint.syntax.cst_from_ast built?
    ``built``: its Converter, which knows each expression's source text (the tree has no formatting to
    print it from) and which functions are only ever called directly (counted while it built the tree)."""
    ctx = interpret_module(module, options, built.code, built.directly_called,
                           mentions_max_norm=built.mentions.get(MAX_NORM_KEYWORD, 0) > 0,
                           mentions_inplace_attribute=built.inplace_attribute,
                           file_runs_backward=runs_backward(built.text))
    if ctx is None:
        return False
    found = bool(ctx.hazards)
    # The context's lazily computed facts close over it (a reference cycle holding the whole tree): let
    # the tree go now, by reference counting, instead of in the next cyclic collection
    ctx.__dict__.clear()
    return found


def interpret_module(module: cst.Module, options: LintOptions, source_of=None, directly_called=None,
                     mentions_max_norm: Optional[bool] = None,
                     mentions_inplace_attribute: Optional[bool] = None,
                     file_runs_backward: bool = False) -> Optional[ModuleContext]:
    """Interpret every unit of ``module`` (refined by its call sites) and collect the hazards; None when the
    module imports no torch. ``directly_called(names)``: what :func:`_directly_called` answers, when the
    caller knows it without walking the tree; ``mentions_max_norm``: whether the tree has that name at all
    (None: look); ``mentions_inplace_attribute``: likewise for an attribute ``inplace`` (``m.inplace = True``)."""
    knowledge = load()
    ctx = ModuleContext(knowledge, module, options.assume_params_are_tensors, source_of)
    ctx.file_runs_backward = file_runs_backward
    imports = ImportMap()
    _collect_imports(module.body, imports)
    if not imports.mentions_torch():
        return None
    _forget_rebound_imports(module.body, imports)
    if mentions_max_norm is None or mentions_inplace_attribute is None:
        names = {node.value for node in walk(module) if type(node) is cst.Name}
        mentions_max_norm = MAX_NORM_KEYWORD in names
        mentions_inplace_attribute = INPLACE_KEYWORD in names  # an attribute's name is a Name node too
    _collect_definitions(ctx, module.body, imports, mentions_max_norm)
    if mentions_inplace_attribute:
        ctx.inplace_flip = _inplace_flip(module, imports)
    if directly_called is not None:
        ctx.directly_called = directly_called(set(ctx.user_functions) | set(ctx.init_params))

    # the module's top level first: its names are the globals every function sees
    top = [s for s in module.body if not type(s) in (cst.FunctionDef, cst.ClassDef)]
    top_unit = Unit(ctx, ImportMap(imports))
    final = _run_unit(ctx, top_unit, State(), top)
    if final is not None:
        ctx.globals = {name: _as_global(name, val) for name, val in final.env.items()}

    functions = list(_functions(ctx, module.body, imports))
    for function, class_name, self_attrs in functions:
        _analyze_function(ctx, function, imports, class_name, self_attrs)
    if ctx.return_summaries or ctx.return_elements or ctx.return_parts or \
            ctx.param_save_asked & ctx.param_save_returns.keys() or \
            ctx.argument_save_asked & ctx.argument_saves.keys() or \
            any(v is not None for v in ctx.views_returned.values()) or \
            any(v is not None for v in ctx.alias_returns.values()) or any(ctx.nograd_returns.values()) or \
            any(ctx.nograd_returns_of_nograd_args.values()) or \
            any(v is not None for v in ctx.returned_modules.values()):
        # a function returning a tensor its ops saved was maybe analysed after its callers: once more, now
        # that every summary is known
        _analyse_changed_readers(ctx, imports, top, functions)

    # Functions this file calls: what their callers pass refines "an unannotated parameter may be a
    # tensor that requires grad". Analyse those again with the joined argument values.
    # Likewise, a function or method that this file only ever calls under no_grad runs without
    # recording anything (grad mode is dynamic): analyse those again as no_grad code.
    refined = _refinable(ctx, module)
    built_directly = _refinable_classes(ctx, module)
    with_hazards = {h.unit for h in ctx.hazards.values()}
    nograd = ctx.nograd_callees()
    redo = []
    for function, class_name, self_attrs in functions:
        name = function.name.value
        key = (class_name, name)
        if function in refined:
            redo.append((function, class_name, self_attrs, ctx.call_args[name], key in nograd))
        elif name == "__init__" and class_name in built_directly:
            # what every call building the class passes refines its parameters (act_layer=partial(...))
            built_with = ConstructorArguments(ctx.constructor_args[class_name])
            redo.append((function, class_name, self_attrs, built_with, False))
        elif function in with_hazards and key in nograd and (class_name or name in _only_called(ctx, module, name)):
            redo.append((function, class_name, self_attrs, None, True))
    # one analysed once, with no_grad as now, whose callers pass what it assumed, and which read nothing
    # that has changed since, would conclude exactly what it did: not analysed again
    # what each refinable function was last analysed with (analysed again or concluding the same)
    refined_with = {entry[0]: dict(entry[3]) for entry in redo
                    if entry[3] is not None and type(entry[3]) is not ConstructorArguments}
    redo = [entry for entry in redo if not _concludes_the_same(ctx, *entry)]
    if redo:
        _analyse_again(ctx, imports, top, functions, redo)
    # a helper's helper (``def pool(f, w): e = weights(w) ...``): what a refined caller passes it refines
    # its callees in turn -- an argument's requiring grad changed since they were refined: once more
    # (bounded)
    for _round in range(2):
        changed = []
        for function, class_name, self_attrs in functions:
            passed = ctx.call_args.get(function.name.value) if function in refined_with else None
            before = refined_with.get(function, {})
            if passed is not None and any(val.grad != before[name].grad if name in before else val.grad != NO
                                          for name, val in passed.items()):
                refined_with[function] = dict(passed)
                changed.append((function, class_name, self_attrs, passed,
                                (class_name, function.name.value) in nograd))
        if not changed:
            break
        _analyse_again(ctx, imports, top, functions, changed)
    return ctx


def _analyse_again(ctx: ModuleContext, imports: ImportMap, top, functions, redo) -> None:
    """Analyse each (function, class, attributes, call args, no_grad) of ``redo`` again, its closures, and
    then the units that read a summary those analyses changed."""
    again = {entry[0] for entry in redo}
    # the closures defined in a function analysed again see its refined names: analysed again too
    closures = [(f, c, a) for f, c, a in functions if ctx.closure_owner.get(f) in again and f not in again]
    again |= {f for f, _c, _a in closures}
    for key in [k for k, h in ctx.hazards.items() if h.unit in again]:
        del ctx.hazards[key]
    for function, class_name, self_attrs, call_args, nograd in redo:
        ctx.refined_args[function] = (call_args, nograd)
        if not nograd:
            # what it returns is concluded afresh from what its callers pass (``exp(-freq)`` of a
            # frequency table that requires no grad saves nothing)
            _forget_return_summary(ctx, (class_name, function.name.value))
        _analyze_function(ctx, function, imports, class_name, self_attrs, call_args, nograd)
    for function, class_name, self_attrs in closures:
        _analyze_function(ctx, function, imports, class_name, self_attrs)
    # the units that read a summary a refined analysis changed: once more (the refined ones with what
    # their callers pass, as just now)
    _analyse_changed_readers(ctx, imports, top, functions)


def _concludes_the_same(ctx: ModuleContext, function, _class_name, _self_attrs, call_args, nograd) -> bool:
    """Would analysing ``function`` again with ``call_args`` (and ``nograd``) conclude what its one analysis
    so far did? Yes when each parameter refined by what is passed stays the value it was declared as, and
    nothing it read has changed (its summaries are then those of that analysis, not a join of several)."""
    entry = ctx.function_entries.get(function)
    if entry is None or entry.analyses != 1 or entry.refined or entry.nograd != nograd:
        return False
    if call_args is not None and type(call_args) is not ConstructorArguments and \
            _constant_parameters(ctx, function):
        return False  # its tests on the strings its calls pass are decided now
    if call_args is not None:
        layers_only = type(call_args) is ConstructorArguments
        for name, declared in entry.parameters.items():
            passed = call_args.get(name)
            if passed is not None and _refines(declared, passed, layers_only) and \
                    _refine_parameter(declared, passed) != declared:
                return False
    return not ctx.reads_changed(function)


def _analyse_changed_readers(ctx: ModuleContext, imports: ImportMap, top, functions) -> None:
    """Analyse again each unit (the top level, then the functions) that read a summary, ``__init__``'s
    attributes or a closure's names which have changed since; the others would conclude the same again,
    a refined function with what its callers pass (``ctx.refined_args``, from whichever round refined it).
    The top level's findings are its own (None): not those of the unit analysed last, whose findings a
    refinement may drop."""
    ctx.current_unit = None
    if ctx.reads_changed(None):
        _forget_findings(ctx, None)
        _run_unit(ctx, Unit(ctx, ImportMap(imports)), State(), top)
    for function, class_name, self_attrs in functions:
        if ctx.reads_changed(function):
            _forget_findings(ctx, function)
            _analyze_function(ctx, function, imports, class_name, self_attrs,
                              *ctx.refined_args.get(function, (None, False)))


def _forget_return_summary(ctx: ModuleContext, key) -> None:
    for summaries in (ctx.return_summaries, ctx.return_elements, ctx.return_parts, ctx.return_keys,
                      ctx.nograd_returns, ctx.nograd_returns_of_nograd_args):
        summaries.pop(key, None)


def _forget_findings(ctx: ModuleContext, unit) -> None:
    """Before ``unit`` (a function node, None for the top level) is analysed again: its hazards, and what it
    read, go."""
    for key, hazard in list(ctx.hazards.items()):
        units = ctx.hazard_units.get(key, [])
        units[:] = [other for other in units if other is not unit]
        if hazard.unit is unit:
            if units:  # another unit reported it too, and stands by it
                hazard.unit = units[0]
            else:
                del ctx.hazards[key]
    ctx.reads.pop(unit, None)




def _as_global(name: str, val: Val) -> Val:
    if val.kind in (MODULE, OTHER, "optimizer", "params"):
        return val
    if val.kind == "container" and val.parts and all(part.kind in (MODULE, OTHER) for part in val.parts):
        return val  # a table of modules or callables (ACTS = {"relu": partial(nn.ReLU, inplace=True)})
    return Val(kind=val.kind, grad=val.grad, groups=frozenset({"global:" + name}), leaf=val.leaf,
               elem_kind=val.elem_kind)


def _run_unit(ctx: ModuleContext, unit: Unit, state: State, body) -> Optional[State]:
    interp = Interpreter(ctx, unit)
    try:
        end = interp.run_block(state, body)
    except RecursionError:
        raise
    except Exception:
        if debug.DEBUG:
            raise
        return None
    return join_end(end, unit.returns)


def join_end(a: Optional[State], b: Optional[State]) -> Optional[State]:
    if a is None:
        return b
    return a if b is None else a.join(b)


# ---------------------------------------------------------------------------------------------- prepass
def _collect_imports(body: Iterable, imports: ImportMap) -> None:
    """Top-level imports, including those inside if/try blocks (``try: import torch``)."""
    for statement in body:
        if type(statement) is cst.SimpleStatementLine:
            for small in statement.body:
                if type(small) in (cst.Import, cst.ImportFrom):
                    imports.add(small)
        elif type(statement) in (cst.If, cst.Try):
            _collect_imports(_child_blocks(statement), imports)


def _forget_rebound_imports(body, imports: ImportMap) -> None:
    """A top-level ``def``/``class`` after an import of its name rebinds it (the name means the definition
    when any function runs): the name is no import. (A definition copied from another file of the program,
    after this file's ``from .layers import Act``: inplace_lint.project.linking.)"""
    imported: Set[str] = set()
    for statement in body:
        kind = type(statement)
        if kind is cst.SimpleStatementLine:
            for small in statement.body:
                if type(small) in (cst.Import, cst.ImportFrom):
                    bound = ImportMap()
                    bound.add(small)
                    imported.update(bound.names)
        elif kind in (cst.FunctionDef, cst.ClassDef):
            name = statement.name.value
            if name in imported:
                imports.names.pop(name, None)


def _child_blocks(statement) -> List:
    out = []
    blocks = [statement.body]
    if type(statement) is cst.If and statement.orelse is not None:
        blocks.append(statement.orelse if type(statement.orelse) is cst.If else statement.orelse.body)
    if type(statement) is cst.Try:
        blocks.extend(h.body for h in statement.handlers)
    for block in blocks:
        if type(block) is cst.If:
            out.append(block)
        elif hasattr(block, "body"):
            out.extend(block.body)
    return out


@dataclass(frozen=True)
class InplaceFlip:
    """Modules switched in place after they were built: ``m.inplace = True`` on each module of a model
    (``for m in self.modules()``, ``model.apply(fn)``), under ``isinstance(m, (nn.ReLU, nn.Dropout))``
    (``classes``) or a test of the class's name (``'ReLU' in type(m).__name__``, ``classname.find('ReLU')
    != -1``: ``name_parts``); with no such test, every module that has an ``inplace`` flag."""

    classes: FrozenSet[str] = frozenset()
    name_parts: FrozenSet[str] = frozenset()
    every: bool = False
    line_node: Optional[cst.CSTNode] = None  # the first flip, for messages

    def covers(self, qualname: str) -> bool:
        short = qualname.split(".")[-1]
        return self.every or qualname in self.classes or any(part in short for part in self.name_parts)


def _inplace_flip(module: cst.Module, imports: ImportMap) -> Optional[InplaceFlip]:
    """The :class:`InplaceFlip` of the file's ``<name>.inplace = True`` statements, else None."""
    classes: Set[str] = set()
    parts: Set[str] = set()
    every = False
    first = None
    stack = [(statement, ()) for statement in module.body]
    while stack:
        node, tests = stack.pop()
        kind = type(node)
        if kind is cst.SimpleStatementLine:
            stack.extend((small, tests) for small in node.body)
        elif kind is cst.Assign:
            if type(node.value) is cst.Name and node.value.value == "True" and any(
                    _switches_inplace(t.target) for t in node.targets):
                first = first or node
                found_classes, found_parts = _flip_conditions(tests, imports)
                classes |= found_classes
                parts |= found_parts
                every = every or not (found_classes or found_parts)
        elif kind is cst.If:
            stack.extend((child, tests + (node.test,)) for child in _block(node.body))
            if type(node.orelse) is cst.If:
                stack.append((node.orelse, tests))
            elif node.orelse is not None:
                stack.extend((child, tests) for child in _block(node.orelse.body))
        elif kind in (cst.FunctionDef, cst.ClassDef, cst.For, cst.While, cst.With, cst.Try):
            stack.extend((child, tests) for child in _compound_children(node))
    if first is None:
        return None
    return InplaceFlip(frozenset(classes), frozenset(parts), every, first)


def _switches_inplace(target) -> bool:
    """``m.inplace = True`` on another module; not a module's own flag (``self.inplace = True``)."""
    return type(target) is cst.Attribute and target.attr.value == INPLACE_KEYWORD and not (
        type(target.value) is cst.Name and target.value.value == "self")


def _flip_conditions(tests, imports: ImportMap) -> Tuple[Set[str], Set[str]]:
    """The module classes (qualnames) and class-name parts that ``if`` tests around a flip pick."""
    classes, parts = set(), set()
    for test in tests:
        for node in walk(test):
            if type(node) is cst.Call and type(node.func) is cst.Name and node.func.value == "isinstance" \
                    and len(node.args) == 2:
                kinds = node.args[1].value
                for element in kinds.elements if type(kinds) in (cst.Tuple, cst.List) else ():
                    classes.add(imports.resolve(element.value) or "")
                if type(kinds) not in (cst.Tuple, cst.List):
                    classes.add(imports.resolve(kinds) or "")
            elif type(node) is cst.SimpleString:
                text = node.evaluated_value if isinstance(node.evaluated_value, str) else ""
                if text.isidentifier():
                    parts.add(text)
    classes.discard("")
    return classes, parts


def _collect_definitions(ctx: ModuleContext, body, imports: ImportMap,
                         mentions_max_norm: bool = True) -> None:
    ctx.grad_off_decorators = _grad_off_decorators(body, imports)
    for statement in body:
        if type(statement) is cst.FunctionDef:
            ctx.user_functions.add(statement.name.value)
            ctx.top_level_functions.add(statement)
            ctx.function_params[statement.name.value] = [n for n, _ in parameter_list(statement)]
            if any(d in sem.NOGRAD_CONTEXTS for d in _decorator_names(statement, imports, ctx.grad_off_decorators)):
                ctx.nograd_functions.add(statement.name.value)
            ctx.function_writes.add(statement.name.value, lambda f=statement: _function_writes(ctx, f))
            ctx.nograd_view_returns.add((None, statement.name.value),
                                        lambda f=statement: _nograd_view_return(f, imports, skip_self=False))
            ctx.string_dispatch.add(statement.name.value, lambda f=statement: _string_dispatch(f))
        elif type(statement) is cst.ClassDef:
            name = statement.name.value
            ctx.user_classes.add(name)
            # only a file that names max_norm can build an embedding that renormalises (a walk of every
            # __init__ for it cost a tenth of the analysis)
            renormalising = frozenset()
            if mentions_max_norm:
                renormalising = _renormalising_attributes(ctx, statement, imports)
            if renormalising:
                ctx.renormalising_classes.add(name)
            for method in _block(statement.body):
                if type(method) is cst.FunctionDef:
                    _collect_method_writes(ctx, name, method, imports, renormalising, statement)
            bases = [imports.resolve(a.value) or dotted(a.value) or "" for a in statement.bases]
            if any(type(m) is cst.FunctionDef and m.name.value == "forward" for m in _block(statement.body)):
                ctx.forward_classes.add(name)
            if any(b in NN_MODULE_BASES or b in ctx.user_modules or b.endswith("nn.Module") for b in bases):
                ctx.user_modules.add(name)
                inits = [m for m in _block(statement.body)
                         if type(m) is cst.FunctionDef and m.name.value == "__init__"]
                if len(inits) == 1 and not _decorator_names(inits[0], imports):
                    ctx.init_params[name] = [n for n, _ in parameter_list(inits[0])][1:]
            else:
                methods = tuple(m.name.value for m in _block(statement.body) if type(m) is cst.FunctionDef)
                if not bases and "__call__" not in methods and "forward" not in methods:
                    ctx.plain_classes[name] = methods
                if not bases and "step" in methods and "zero_grad" in methods:
                    # a hand-written optimizer without a base: its self.params holds what it steps
                    ctx.optimizer_classes.add(name)
            for base in bases:
                info = ctx.k.lookup(base) if base.startswith("torch.nn.") and base not in NN_MODULE_BASES else None
                if info is not None and info.kind == "module":
                    # class L(nn.Linear): self.weight and self.bias are the layer's own parameters
                    ctx.torch_layer_subclasses[name] = base
            if any(b in OPTIMIZER_BASES or b in ctx.optimizer_classes for b in bases):
                ctx.optimizer_classes.add(name)  # its self.param_groups hold the parameters it steps
            if any(b in AUTOGRAD_FUNCTION_BASES for b in bases):
                ctx.autograd_functions_all.add(name)
                summary = _summarize_autograd_function(statement, ctx.k)
                if summary is not None:
                    ctx.autograd_functions[name] = summary


def _renormalising_attributes(ctx: ModuleContext, cls: cst.ClassDef, imports: ImportMap) -> Dict[str, object]:
    """The ``self`` attributes the class's ``__init__`` builds as modules that write their own weight on
    every call: ``self.emb = nn.Embedding(n, d, max_norm=1.0)``."""
    return _built_self_modules(ctx, cls, imports,
                               lambda call, info, _true_names: sem.renormalising_arg(call, info))


def _inplace_attributes(ctx: ModuleContext, cls: cst.ClassDef, imports: ImportMap) -> Dict[str, object]:
    """The ``self`` attributes the class's ``__init__`` builds as modules that write their input in place:
    ``self.act = nn.ReLU(inplace=True)``."""
    return _built_self_modules(ctx, cls, imports, lambda call, info, true_names: sem._ctor_inplace(
        call, info.ctor_params, true_names))


def _built_self_modules(ctx: ModuleContext, cls: cst.ClassDef, imports: ImportMap, which) -> Dict[str, object]:
    """The ``self`` attributes ``__init__`` sets to a torch module built so that ``which(call, info,
    true_names)`` (``true_names``: the parameters of ``__init__`` that are True whenever it runs), or to an
    ``nn.Sequential`` whose first layer is one; each with that first layer's construction (None for a
    module itself), where a finding is reported as it is for a Sequential called in one function. The
    module's class may be a parameter's default no construction of the class overrides
    (``act_layer=nn.SiLU``: ``self.act = act_layer(inplace=inplace)``)."""
    found: Dict[str, object] = {}
    for init in _block(cls.body):
        if not type(init) is cst.FunctionDef or init.name.value != "__init__":
            continue
        params = parameter_list(init)
        self_name = params[0][0] if params else None
        defaults = {name: param.default for name, param in params
                    if type(param.default) in (cst.Name, cst.Attribute)}
        true_names = _true_defaults(ctx, init, cls.name.value)
        layer_defaults = None  # which defaults no construction overrides: looked up only when one matters
        for node in _assignments(init):
            if type(node.value) is not cst.Call:
                continue
            built, first_layer = node.value, None
            if imports.resolve(built.func) == sem.SEQUENTIAL and built.args and not built.args[0].star and \
                    type(built.args[0].value) is cst.Call:
                # nn.Sequential(nn.ReLU(inplace=True), conv, ...): its first layer gets the input itself
                built = first_layer = built.args[0].value
            func = built.func
            layer = type(func) is cst.Name and func.value in defaults  # act_layer(inplace=True)
            info = ctx.k.lookup(imports.resolve(defaults[func.value] if layer else func) or "")
            if info is None or info.kind != "module" or which(built, info, true_names) is None:
                continue
            if layer:
                if layer_defaults is None:
                    layer_defaults = _unpassed_layer_defaults(ctx, init, cls.name.value, imports)
                if func.value not in layer_defaults:
                    continue
            for target in node.targets:
                t = target.target
                if type(t) is cst.Attribute and type(t.value) is cst.Name and t.value.value == self_name:
                    found[t.attr.value] = first_layer
    return found


def _assignments(function: cst.FunctionDef) -> Iterable[cst.Assign]:
    """The assignment statements of ``function``'s body and of its blocks (nested functions aside): where
    ``self.act = nn.ReLU(inplace=True)`` stands; walking every expression for them cost a twentieth of a lint."""
    for statement in _statements(function):
        if type(statement) is cst.SimpleStatementLine:
            yield from (small for small in statement.body if type(small) is cst.Assign)


def _statements(function: cst.FunctionDef) -> Iterable[cst.CSTNode]:
    """Every statement of ``function``'s body and of the blocks of its if/for/while/try/with statements
    (nested functions and classes are statements, not looked into): no expression is walked."""
    stack = list(_block(function.body))
    while stack:
        statement = stack.pop()
        yield statement
        if type(statement) in (cst.If, cst.For, cst.While, cst.Try, cst.With):
            stack.extend(_compound_children(statement))


def _collect_method_writes(ctx: ModuleContext, class_name: str, method: cst.FunctionDef, imports: ImportMap,
                           renormalising: frozenset = frozenset(), cls: Optional[cst.ClassDef] = None) -> None:
    """A method that writes a parameter other than ``self`` in place: ``self.m(y)`` writes ``y``, also by
    calling a module of ``cls`` built in place on it (``self.act(x)`` with ``nn.ReLU(inplace=True)``). Also
    its writes to its own tensors, and its calls of a ``renormalising`` attribute (``self.emb(tokens)``
    with ``max_norm``: it writes ``self.emb``'s weight, keyed ``"self.emb"``)."""
    decorators = _decorator_names(method, imports)
    if "classmethod" in decorators:
        return

    def compute():
        params = [name for name, _ in parameter_list(method)]
        self_name = params[0] if params and "staticmethod" not in decorators else None
        if self_name is not None:
            params = params[1:]
        found = parameter_writes(method, ctx.k, self_name, _callee_writes(ctx, class_name, self_name))
        if self_name is not None and self_name in found:
            # writes to self's parameters (``for t in self.state_dict().values(): t.clamp_(-c, c)``)
            found[sem.SELF_PARAMETERS] = found.pop(self_name)
        # writes to self's tensors (``self.queue[:, i:j] = keys.T``) are keyed "self.<attr>"
        writes = {p: w for p, w in found.items() if p in params or p.startswith(SELF_ATTRIBUTE)}
        if self_name is not None and cls is not None and params:
            _inplace_module_calls(ctx, cls, method, imports, self_name, params, writes)
        if self_name is not None and renormalising:
            for node in walk(method, skip_nested_functions=True):
                f = node.func if type(node) is cst.Call else None
                if type(f) is cst.Attribute and type(f.value) is cst.Name and f.value.value == self_name \
                        and f.attr.value in renormalising:
                    writes.setdefault(SELF_ATTRIBUTE + f.attr.value, []).append((node, "renorm", node))
        return (params, writes) if writes else None

    ctx.method_writes.add((class_name, method.name.value), compute)
    ctx.nograd_view_returns.add((class_name, method.name.value), lambda: _nograd_view_return(
        method, imports, skip_self="staticmethod" not in decorators))


def _inplace_module_calls(ctx: ModuleContext, cls: cst.ClassDef, method: cst.FunctionDef, imports: ImportMap,
                          self_name: str, params: List[str], writes: Dict[str, list]) -> None:
    """``self.act(x)`` on a parameter ``x`` the method never rebinds, with ``self.act`` built in place: the
    call writes what the caller passed (a pre-activation block handed ``F.relu``'s output)."""
    inplace = ctx.inplace_attributes.get(cls)
    if inplace is None:
        inplace = ctx.inplace_attributes[cls] = _inplace_attributes(ctx, cls, imports)
    if not inplace:
        return
    calls = [node for node in walk(method, skip_nested_functions=True)
             if type(node) is cst.Call and type(node.func) is cst.Attribute and type(node.func.value) is cst.Name
             and node.func.value.value == self_name and node.func.attr.value in inplace and node.args
             and not node.args[0].keyword and type(node.args[0].value) is cst.Name
             and node.args[0].value.value in params]
    if not calls:
        return
    rebound = {name for node in walk(method.body) if type(node) in _BINDING_NODES for name in _rebound_names(node)}
    for call in calls:
        param = call.args[0].value.value
        if param not in rebound:
            layer = inplace[call.func.attr.value]
            if layer is not None:  # the in-place first layer of a Sequential: reported where it is built
                writes.setdefault(param, []).append((layer, "module_call", ctx.code(layer)))
            else:
                writes.setdefault(param, []).append((call, "module_call", f"{ctx.code(call.func)}(...)"))


def _nograd_view_return(function: cst.FunctionDef, imports: ImportMap, skip_self: bool) \
        -> Optional[NogradViewReturn]:
    """What :class:`NogradViewReturn` describes, when every ``return`` hands back a basic view made under
    no_grad of one parameter (or of a tensor reached from it by attributes), alone or as one element of a
    tuple (``return x, keep, ratio`` after ``x = inputs.reshape(...)`` there). Else None."""
    decorated = any(d in sem.NOGRAD_CONTEXTS for d in _decorator_names(function, imports))
    if not decorated and not any(type(statement) is cst.With for statement in _statements(function)):
        return None  # no return can be under no_grad
    names = [name for name, _param in parameter_list(function)][1 if skip_self else 0:]
    bound: Dict[str, int] = {}
    for node in walk(function.body):
        if type(node) in _BINDING_NODES:
            for name in _rebound_names(node):
                if name in names:
                    return None  # a parameter rebound (or anything like it): not worth following
                bound[name] = bound.get(name, 0) + 1
    views: Dict[str, tuple] = {}  # local names bound once, under no_grad, to a view of a parameter
    returned = set()

    def nograd_item(item: cst.WithItem) -> bool:
        call = item.item
        return (imports.resolve(call.func if type(call) is cst.Call else call) or "") in sem.NOGRAD_CONTEXTS

    def view_of(node) -> Optional[tuple]:
        """(parameter, attributes, by_method) of a view of a parameter, else None."""
        if type(node) is cst.Name and node.value in views:
            return views[node.value]
        root = _basic_view_base(node)
        attrs = []
        while type(root) is cst.Attribute:
            attrs.append(root.attr.value)
            root = root.value
        if type(root) is not cst.Name or root.value not in names:
            return None
        return root.value, tuple(reversed(attrs)), _viewed_by_method(node)

    def visit(statements, nograd: bool) -> bool:
        for statement in statements:
            kind = type(statement)
            if kind is cst.SimpleStatementLine:
                for small in statement.body:
                    if type(small) is cst.Assign and nograd and len(small.targets) == 1 and \
                            type(small.targets[0].target) is cst.Name and \
                            bound.get(small.targets[0].target.value) == 1:
                        found = view_of(small.value)
                        if found is not None:
                            views[small.targets[0].target.value] = found
                    elif type(small) is cst.Return:
                        if not nograd or small.value is None:
                            return False
                        value = small.value
                        if type(value) is not cst.Tuple:
                            found = view_of(value)
                            if found is None:
                                return False
                            returned.add((found, None, 0, ()))
                            continue
                        if any(type(e) is not cst.Element for e in value.elements):
                            return False  # ``return *views, keep``: positions unknown
                        found = [(i, view_of(e.value)) for i, e in enumerate(value.elements)]
                        found = [(i, view) for i, view in found if view is not None]
                        if len(found) != 1:
                            return False
                        handed = tuple((i, e.value.value, names.index(e.value.value))
                                       for i, e in enumerate(value.elements)
                                       if type(e.value) is cst.Name and e.value.value in names)
                        returned.add((found[0][1], found[0][0], len(value.elements), handed))
            elif kind is cst.With:
                if not visit(_block(statement.body), nograd or any(nograd_item(i) for i in statement.items)):
                    return False
            elif kind in (cst.If, cst.Try, cst.For, cst.While):
                if not visit(_compound_children(statement), nograd):
                    return False
        return True

    if not visit(_block(function.body), decorated) or len(returned) != 1:
        return None
    (name, attrs, by_method), element, length, handed = returned.pop()
    return NogradViewReturn(name, names.index(name), attrs, by_method, element, length, handed)


def _string_dispatch(function: cst.FunctionDef) -> Optional[tuple]:
    """``(parameter, {string: returned expression})`` of a function that only picks what it returns by
    comparing one parameter with strings (``if activation == "relu": return F.relu``, then ``raise``):
    a call with a known string returns that expression (a torch callable, named as the file imports it).
    Else None."""
    params = [name for name, _param in parameter_list(function)]
    table: Dict[str, cst.BaseExpression] = {}
    param = None
    statements = _block(function.body)
    if statements and is_docstring(statements[0]):
        statements = statements[1:]
    for statement in statements:
        if type(statement) is cst.If:
            test, body = statement.test, _block(statement.body)
            if statement.orelse is not None or len(body) != 1:
                return None
            returned = _only_return(body[0])
            if type(test) is not cst.Comparison or len(test.comparisons) != 1 or \
                    type(test.comparisons[0].operator) is not cst.Equal or returned is None:
                return None
            left, right = test.left, test.comparisons[0].comparator
            name, text = (left, right) if type(left) is cst.Name else (right, left)
            key = sem.string_key(text) if type(text) is cst.SimpleString else None
            if type(name) is not cst.Name or name.value not in params or key is None or \
                    param not in (None, name.value) or dotted(returned) is None:
                return None
            param = name.value
            table.setdefault(key, returned)
        elif not (type(statement) is cst.SimpleStatementLine and len(statement.body) == 1
                  and type(statement.body[0]) is cst.Raise):
            return None
    return (param, table) if param is not None else None


def _only_return(statement) -> Optional[cst.BaseExpression]:
    if type(statement) is cst.SimpleStatementLine and len(statement.body) == 1 and \
            type(statement.body[0]) is cst.Return:
        return statement.body[0].value
    return None


_BINDING_NODES = frozenset({cst.Assign, cst.AnnAssign, cst.AugAssign, cst.For, cst.NamedExpr, cst.CompFor,
                            cst.Global, cst.Nonlocal, cst.AsName})


def _names_bound_in(function: cst.FunctionDef, self_name: str) -> FrozenSet[str]:
    """The names ``function``'s body binds (nested scopes included: a closure may rebind one through
    ``nonlocal``) and the ``self.x`` attributes it assigns; ``"self."`` when it ``setattr``s any."""
    bound = set()
    for node in walk(function.body):
        bound.update(_rebound_names(node))
        kind = type(node)
        if kind in (cst.Assign, cst.AnnAssign, cst.AugAssign):
            for target in [t.target for t in node.targets] if kind is cst.Assign else [node.target]:
                bound.update(dotted(n) or "" for n in walk(target) if type(n) is cst.Attribute)
        elif kind is cst.Call and type(node.func) is cst.Name and node.func.value == "setattr" and self_name:
            bound.add(self_name + ".")
    return frozenset(bound)


def _rebound_names(node) -> List[str]:
    """The plain names a statement or expression node binds (``x = ...``, ``for x in``, ``x += 1``,
    ``(x := ...)``, ``global x``); ``x[0] = ...`` binds none."""
    kind = type(node)
    if kind is cst.Assign:
        targets = [t.target for t in node.targets]
    elif kind in (cst.AnnAssign, cst.AugAssign, cst.For, cst.NamedExpr, cst.CompFor):
        targets = [node.target]
    elif kind is cst.Global or kind is cst.Nonlocal:
        return [n.name.value for n in node.names]
    elif kind is cst.AsName:
        targets = [node.name]
    else:
        return []
    out = []
    while targets:
        target = targets.pop()
        if type(target) is cst.Name:
            out.append(target.value)
        elif type(target) in (cst.Tuple, cst.List):
            targets.extend(e.value for e in target.elements)
        elif type(target) is cst.StarredElement:
            targets.append(target.value)
    return out


def _basic_view_base(node) -> Optional[cst.BaseExpression]:
    """``h`` for ``h[:, -1]``, ``h.transpose(0, 1)[0]``, ``model.embed.weight[-n:]``: what a view by number
    and slice indexing and view methods only (a tensor or list index gathers a copy) is made of, when that is
    a name or an attribute of one."""
    seen_view = False
    while True:
        kind = type(node)
        if kind is cst.Subscript:
            if not all(type(e.slice) is cst.Slice or type(e.slice.value) is cst.Integer or (
                    type(e.slice.value) is cst.UnaryOperation and type(e.slice.value.expression) is cst.Integer)
                    for e in node.slice):
                return None
            node, seen_view = node.value, True
        elif kind is cst.Call and type(node.func) is cst.Attribute and node.func.attr.value in VIEW_METHODS:
            node, seen_view = node.func.value, True
        else:
            break
    root = node
    while type(root) is cst.Attribute:
        root = root.value
    return node if seen_view and type(root) is cst.Name else None


def _viewed_by_method(node) -> bool:
    """Does the view chain ``node`` (see :func:`_basic_view_base`) call a tensor view method?"""
    while type(node) is cst.Subscript or type(node) is cst.Call:
        if type(node) is cst.Call:
            return True
        node = node.value
    return False


def _function_writes(ctx: ModuleContext, function: cst.FunctionDef):
    writes = parameter_writes(function, ctx.k, callee_writes=_callee_writes(ctx, None, None))
    return ([n for n, _ in parameter_list(function)], writes) if writes else None


def _callee_writes(ctx: ModuleContext, class_name: Optional[str], self_name: Optional[str]):
    """For :func:`parameter_writes`: what the function of this file, or the method of the same class, that
    a call runs writes of its parameters (its writes to its own tensors are its own)."""

    def lookup(call: cst.Call):
        f = call.func
        found = None
        if type(f) is cst.Name:
            found = ctx.function_writes.get(f.value)
        elif self_name and class_name and type(f) is cst.Attribute and type(f.value) is cst.Name \
                and f.value.value == self_name:
            found = ctx.method_writes.get((class_name, f.attr.value))
        if found is None:
            return None
        params, writes = found
        return params, {p: w for p, w in writes.items() if p in params}

    return lookup


def _functions(ctx: ModuleContext, body, imports: ImportMap, class_name: Optional[str] = None):
    """Every function to analyse, methods after their class's ``__init__``."""
    for statement in body:
        if type(statement) is cst.FunctionDef:
            yield statement, class_name, None
            yield from _functions(ctx, _block(statement.body), imports, None)
        elif type(statement) is cst.ClassDef:
            methods = [s for s in _block(statement.body) if type(s) is cst.FunctionDef]
            methods.sort(key=lambda f: f.name.value != "__init__")
            for method in methods:
                yield method, statement.name.value, None
                yield from _functions(ctx, _block(method.body), imports, None)
            nested = [s for s in _block(statement.body) if type(s) is cst.ClassDef]
            yield from _functions(ctx, nested, imports, None)
        elif type(statement) in (cst.If, cst.Try, cst.With, cst.For, cst.While):
            yield from _functions(ctx, _compound_children(statement), imports, class_name)


def _compound_children(statement) -> List:
    out = list(_block(statement.body))
    orelse = getattr(statement, "orelse", None)
    if type(orelse) is cst.If:
        out.append(orelse)
    elif orelse is not None:
        out.extend(_block(orelse.body))
    for handler in getattr(statement, "handlers", ()):
        out.extend(_block(handler.body))
    final = getattr(statement, "finalbody", None)
    if final is not None:
        out.extend(_block(final.body))
    return out


def _block(body) -> List:
    if type(body) in (cst.IndentedBlock, cst.SimpleStatementSuite):
        return list(body.body)
    return []


def _decorator_names(function: cst.FunctionDef, imports: ImportMap, grad_off=frozenset()) -> List[str]:
    """What each decorator of ``function`` names; one of ``grad_off`` (this file's decorators that run the
    function under no_grad) as ``torch.no_grad``."""
    names = []
    for decorator in function.decorators:
        node = decorator.decorator
        if type(node) is cst.Call:
            node = node.func
        name = imports.resolve(node) or dotted(node) or ""
        names.append("torch.no_grad" if name in grad_off else name)
    return names


def _grad_off_decorators(body, imports: ImportMap) -> FrozenSet[str]:
    """This file's functions used as decorators that run what they decorate with grad off (a wrapper of
    ``torch.no_grad``, as ultralytics' ``smart_inference_mode``): one that applies a grad-off context to a
    function (``torch.no_grad()(fn)``, ``(torch.inference_mode if new else torch.no_grad)()(fn)``), decorates
    its wrapper with one, or calls what it was given inside ``with torch.no_grad():``."""
    used = set()
    for statement in body:
        holders = [statement] if type(statement) is cst.FunctionDef else \
            [m for m in _block(statement.body) if type(m) is cst.FunctionDef] if type(statement) is cst.ClassDef else []
        for function in holders:
            for decorator in function.decorators:
                node = decorator.decorator.func if type(decorator.decorator) is cst.Call else decorator.decorator
                if type(node) is cst.Name:
                    used.add(node.value)
    found = set()
    for statement in body:
        if type(statement) is cst.FunctionDef and statement.name.value in used and \
                _applies_grad_off(statement, imports):
            found.add(statement.name.value)
    return frozenset(found)


def _applies_grad_off(decorator: cst.FunctionDef, imports: ImportMap) -> bool:
    def grad_off(node) -> bool:
        if type(node) is cst.Call:
            node = node.func
        if type(node) is cst.IfExp:
            return grad_off(node.body) and grad_off(node.orelse)
        return imports.resolve(node) in sem.NOGRAD_CONTEXTS

    given = {name for node in walk(decorator) if type(node) is cst.FunctionDef
             for name, _param in parameter_list(node)}
    for node in walk(decorator):
        kind = type(node)
        if kind is cst.Call and type(node.func) is cst.Call and node.args and grad_off(node.func.func):
            return True  # torch.no_grad()(fn)
        if kind is cst.FunctionDef and node is not decorator and \
                any(grad_off(d.decorator) for d in node.decorators):
            return True
        if kind is cst.With and any(grad_off(item.item) for item in node.items) and any(
                type(inner) is cst.Call and type(inner.func) is cst.Name and inner.func.value in given
                for inner in walk(node.body)):
            return True
    return False


def _only_called(ctx: ModuleContext, module: cst.Module, name: str) -> set:
    """{name} when every mention of the module-level function ``name`` is a direct call, else {}."""
    return {name} & _directly_called_in(ctx, module)


def _refinable(ctx: ModuleContext, module: cst.Module) -> set:
    """Module-level functions that are only ever called directly, with known arguments, in this file."""
    names = {n for n in ctx.call_args if n not in ctx.opaque_functions}
    if not names:
        return set()
    keep = names & _directly_called_in(ctx, module)
    return {s for s in module.body if type(s) is cst.FunctionDef and s.name.value in keep}


def _refinable_classes(ctx: ModuleContext, module: cst.Module) -> set:
    """Module classes of this file only ever built directly (never subclassed, passed around or wrapped in a
    partial), with known arguments: their ``__init__`` is refined by what those calls pass."""
    names = {n for n in ctx.constructor_args if n not in ctx.opaque_constructors}
    return names & _directly_called_in(ctx, module) if names else set()


def _directly_called_in(ctx: ModuleContext, module: cst.Module) -> set:
    if ctx.directly_called is None:
        ctx.directly_called = _directly_called(module, set(ctx.user_functions) | set(ctx.init_params))
    return ctx.directly_called


def _directly_called(module: cst.Module, names: set) -> set:
    # a function passed around (callback, decorator, exported in a list) has callers we cannot see
    called, mentioned = {}, {}
    call_type, name_type = cst.Call, cst.Name  # exact types: LibCST's nodes are final, and ABC checks are slow
    for node in walk(module):
        kind = type(node)
        if kind is call_type:
            func = node.func
            if type(func) is name_type and func.value in names:
                called[func.value] = called.get(func.value, 0) + 1
        elif kind is name_type and node.value in names:
            mentioned[node.value] = mentioned.get(node.value, 0) + 1
        elif kind is cst.Attribute and node.attr.value in names:
            # model.train() names a method, not the module-level train(): not a mention of the function
            mentioned[node.attr.value] = mentioned.get(node.attr.value, 0) - 1
    return {n for n in names if mentioned.get(n, 0) == called.get(n, 0) + 1 and called.get(n)}  # +1: its def


def _true_defaults(ctx: ModuleContext, function: cst.FunctionDef, class_name: Optional[str]) -> frozenset:
    """The parameters of ``function`` whose default is ``True`` and that it always runs with
    (``def __init__(self, c, inplace=True): self.act = nn.SiLU(inplace=inplace)``, the class only ever
    built as ``Block(c)``): see :func:`_unpassed_test`; a parameter the function assigns is not one."""
    known = ctx.true_defaults.get(function)
    if known is None:
        known = ctx.true_defaults[function] = _find_true_defaults(ctx, function, class_name)
    return known


def _find_true_defaults(ctx: ModuleContext, function: cst.FunctionDef,
                        class_name: Optional[str]) -> frozenset:
    candidates = [(index, name) for index, (name, param) in enumerate(parameter_list(function))
                  if type(param.default) is cst.Name and param.default.value == "True"]
    if not candidates or not _callers_visible(ctx, function, class_name):  # most functions: no walk at all
        return frozenset()
    # only a flag passed on as ``inplace=flag`` (or positionally: ``nn.ReLU(flag)``) can build a module in
    # place; the file's calls are walked only for those
    calls = [node for node in walk(function, skip_nested_functions=True) if type(node) is cst.Call]
    passed_on = {arg.value.value for call in calls for arg in call.args
                 if type(arg.value) is cst.Name
                 and (arg.keyword is None or arg.keyword.value == INPLACE_KEYWORD)}
    candidates = [(index, name) for index, name in candidates if name in passed_on]
    if not candidates:
        return frozenset()
    unpassed = _unpassed_test(ctx, function, class_name)
    if unpassed is None:
        return frozenset()
    rebound = _assigned_names(function)
    return frozenset(name for index, name in candidates if name not in rebound and unpassed(index, name))


def _unpassed_layer_defaults(ctx: ModuleContext, init: cst.FunctionDef, class_name: str,
                             imports: ImportMap) -> Dict[str, str]:
    """``{"act_layer": "torch.nn.SiLU"}`` for ``def __init__(self, c, act_layer=nn.SiLU)`` when the class is
    always built without ``act_layer`` (:func:`_unpassed_test`) and ``__init__`` never assigns it."""
    candidates = [(index, name, qualname) for index, (name, param) in enumerate(parameter_list(init))
                  if type(param.default) in (cst.Name, cst.Attribute)
                  and (qualname := imports.resolve(param.default))]
    if not candidates:
        return {}
    unpassed = _unpassed_test(ctx, init, class_name)
    if unpassed is None:
        return {}
    rebound = _assigned_names(init)
    return {name: qualname for index, name, qualname in candidates
            if name not in rebound and unpassed(index, name)}


def _unpassed_test(ctx: ModuleContext, function: cst.FunctionDef, class_name: Optional[str]):
    """``unpassed(index, name)``: does no call of ``function`` (no construction of its class, for
    ``__init__``) in the file pass parameter ``name`` (at ``index`` in the signature)? None when some
    caller cannot be seen: a method other than ``__init__`` (``forward`` runs through ``__call__``), a
    decorated function or class (a registry builds it), or a function or class named anywhere but as the
    callee of a call (``partial(Block, inplace=False)``)."""
    if not _callers_visible(ctx, function, class_name):
        return None
    callee = class_name if class_name is not None else function.name.value
    calls, mentions = _calls_and_mentions(ctx)
    built = calls.get(callee, ())
    if mentions.get(callee, 0) != len(built) + 1:  # + 1: its own def or class statement
        return None
    skip = 1 if class_name is not None else 0  # self

    def unpassed(index: int, name: str) -> bool:
        for call in built:
            positional = 0
            for arg in call.args:
                if arg.star or (arg.keyword is not None and arg.keyword.value == name):
                    return False
                positional += arg.keyword is None
            if positional > index - skip:
                return False
        return True

    return unpassed


def _callers_visible(ctx: ModuleContext, function: cst.FunctionDef, class_name: Optional[str]) -> bool:
    """The cheap half of :func:`_unpassed_test`: not a decorated function, a method other than
    ``__init__``, or the ``__init__`` of a decorated class (or of one not found)."""
    if function.decorators or (class_name is not None and function.name.value != "__init__"):
        return False
    if class_name is not None:
        owner = ctx.class_statement(class_name)
        if owner is None or owner.decorators:
            return False
    return True


def _assigned_names(function: cst.FunctionDef) -> Set[str]:
    """Names ``function`` itself binds by assignment, ``for``, ``with ... as`` or ``:=``."""
    found: Set[str] = set()
    for node in walk(function, skip_nested_functions=True):
        kind = type(node)
        targets = ()
        if kind is cst.Assign:
            targets = [t.target for t in node.targets]
        elif kind in (cst.AugAssign, cst.AnnAssign, cst.For, cst.NamedExpr):
            targets = [node.target]
        elif kind is cst.AsName:
            targets = [node.name]
        for target in targets:
            found.update(n.value for n in walk(target) if type(n) is cst.Name)
    return found


def _calls_and_mentions(ctx: ModuleContext):
    """The file's calls by the callee's last name (``Block(...)``, ``blocks.Block(...)``,
    ``self.make(...)``), and how often each name is mentioned (as a Name, an attribute, a def or a class)."""
    if ctx.calls_and_mentions is None:
        calls: Dict[str, List[cst.Call]] = {}
        mentions: Dict[str, int] = {}
        for node in walk(ctx.module):
            kind = type(node)
            if kind is cst.Call:
                func = node.func
                last = (func.value if type(func) is cst.Name
                        else func.attr.value if type(func) is cst.Attribute else None)
                if last is not None:
                    calls.setdefault(last, []).append(node)
            elif kind is cst.Name:
                mentions[node.value] = mentions.get(node.value, 0) + 1
        ctx.calls_and_mentions = (calls, mentions)
    return ctx.calls_and_mentions


def _only_called_in_nograd_owner(ctx: ModuleContext, function: cst.FunctionDef) -> bool:
    """Is ``function`` nested in a function analysed as no_grad code (``@torch.no_grad() def
    load_weights(model, path): def _convert(module, prefix): ...``) and only ever called there, never
    returned, stored or passed on? Grad mode is dynamic: its every call then runs with grad off."""
    owner = ctx.closure_owner.get(function)
    entry = ctx.function_entries.get(owner) if owner is not None else None
    if entry is None or not entry.nograd:
        return False
    name = function.name.value
    calls = mentions = 0
    for node in walk(owner.body):
        if type(node) is cst.Call and type(node.func) is cst.Name and node.func.value == name:
            calls += 1
        elif type(node) is cst.Name and node.value == name:
            mentions += 1
    # the def's own name, and every other mention a call (another def of that name is one more mention)
    return mentions == calls + 1


def _analyze_function(ctx: ModuleContext, function: cst.FunctionDef, imports: ImportMap, class_name: Optional[str],
                      self_attrs, call_args: Optional[Dict[str, Val]] = None, called_under_no_grad: bool = False) -> None:
    ctx.current_unit = function
    ctx.reads.pop(function, None)
    for nested in [f for f, owner in ctx.closure_owner.items() if owner is function]:
        ctx.closure_envs.pop(nested, None)  # this analysis of the function sets its closures' names afresh
    decorators = _decorator_names(function, imports, ctx.grad_off_decorators)
    nograd = called_under_no_grad or any(d in sem.NOGRAD_CONTEXTS for d in decorators) or \
        _only_called_in_nograd_owner(ctx, function)
    in_autograd_function = class_name is not None and class_name in ctx.autograd_functions_all
    if in_autograd_function and function.name.value in ("forward", "backward", "setup_context", "jvp", "vjp"):
        nograd = True  # autograd is off inside a custom Function's forward/backward
    is_method = class_name is not None and "staticmethod" not in decorators
    params = parameter_list(function)
    self_name = params[0][0] if is_method and params else ""
    unit = Unit(ctx, ImportMap(imports), nograd=nograd, self_name=self_name, class_name=class_name)
    unit.returns_escape = not looks_like_inference(function.name.value)
    unit.function_name = function.name.value
    unit.param_order = tuple(name for index, (name, _p) in enumerate(params)
                             if not (is_method and index == 0))
    unit.params = frozenset(unit.param_order)
    unit.true_defaults = _true_defaults(ctx, function, class_name)
    if call_args is not None and type(call_args) is not ConstructorArguments and class_name is None:
        unit.constant_params = _constant_parameters(ctx, function)
    unit.param_grad_origin = _params_may_require_grad(ctx, function, class_name, imports)
    if unit.params_may_require_grad:
        ctx.grad_param_units.add(function)
    # what every call in the file passes: a return that requires no grad then says so of each call
    unit.params_from_callers = call_args is not None and type(call_args) is not ConstructorArguments
    if not nograd and (class_name is None and function in ctx.top_level_functions
                       or class_name is not None and function.name.value != "__init__"):
        unit.summary_key = (class_name, function.name.value)
    state = State()
    interp = Interpreter(ctx, unit)
    declared: Dict[str, Val] = {}
    layers_only = type(call_args) is ConstructorArguments
    containers = ctx.container_parameters.get(function)
    if containers is None:
        containers = ctx.container_parameters[function] = container_parameters(function, unit.params)
    rebound = ctx.rebound_names.get(function)
    if rebound is None:
        rebound = ctx.rebound_names[function] = _names_bound_in(function, self_name)
    unit.rebound = rebound
    scalars = ctx.docstring_scalars.get(function)
    if scalars is None:
        scalars = ctx.docstring_scalars[function] = declared_non_tensors(function, unit.params)
    for index, (name, param) in enumerate(params):
        if is_method and index == 0:
            state.env[name] = OTHER_VAL
            continue
        # a docstring's ``sigma: float`` is the annotation unannotated code has
        value = OTHER_VAL if name in scalars and param.annotation is None else \
            _parameter_value(ctx, interp, name, param, unit.param_grad_origin)
        if name in containers and value.kind == UNKNOWN:
            value = Val(kind=CONTAINER, grad=value.grad, groups=value.groups, elem_kind=UNKNOWN)
        declared[name] = value
        if value.grad == NO and value.kind != OTHER:
            unit.params_without_evidence.add(name)
        passed = call_args.get(name) if call_args is not None else None
        if passed is not None and _refines(value, passed, layers_only):
            value = _refine_parameter(value, passed)
            if value.grad != NO:
                value = replace(value, origin=GradOrigin(name, CALLERS_PASS, unit.function_name,
                                                         certain=value.grad == YES, via=passed.origin))
        state.env[name] = value
    if is_method and function.name.value != "__init__":
        # __init__ makes the attributes: it starts without them (reading its own would have every __init__
        # analysed again once its first analysis set them, for nothing it did not already see)
        for key, val in ctx.read_attributes(class_name).items():
            state.env[self_name + "." + key] = val
    for name, val in ctx.read_closure(function).items():
        state.env.setdefault(name, val)  # a closure's free names (its parameters shadow them)
    before = ctx.function_entries.get(function)
    ctx.function_entries[function] = FunctionEntry(before.analyses + 1 if before else 1, nograd,
                                                   call_args is not None, declared)
    end = _run_unit(ctx, unit, state, _block(function.body))
    if is_method and function.name.value == "__init__" and end is not None:
        attrs = {}
        for key, val in end.env.items():
            if key.startswith(self_name + ".") and key.count(".") == 1:
                attrs[key.split(".", 1)[1]] = _as_attribute(key, val)
        ctx.class_attrs[class_name] = attrs


class ConstructorArguments(dict):
    """What the calls building a class pass its ``__init__`` (the callables only: see _refines)."""


def _refines(declared: Val, passed: Val, layers_only: bool = False) -> bool:
    """Does what callers pass refine the parameter? Not one that is no tensor, except a layer as default
    (``act_layer=nn.ReLU``) to which the joined calls pass one known callable (``partial(nn.LeakyReLU,
    inplace=True)``; calls passing different ones join to none and leave the default). ``layers_only``
    (a class's constructor calls): only such a layer parameter (inplace_lint.syntax.select keeps every part
    building a class whose ``__init__`` has a layer default, and no other)."""
    layer = declared.callee is not None and passed.callee is not None
    return layer if layers_only else declared.kind != OTHER or layer


def _refine_parameter(declared: Val, passed: Val) -> Val:
    """What every call site passes decides what the parameter may be; its identity stays its own."""
    if passed.kind in (OTHER, MODULE, "optimizer", "params", "container"):
        if passed.kind != "container":
            return passed
        return Val(kind="container", grad=passed.grad, groups=declared.groups, elem_kind=passed.elem_kind,
                   leaf=passed.leaf)
    return Val(kind=passed.kind, grad=passed.grad, groups=declared.groups,
               leaf=passed.leaf, fresh=False)


def _as_attribute(key: str, val: Val) -> Val:
    if val.kind in (MODULE, OTHER, OPTIMIZER, PARAMS):
        # an optimizer keeps the parameter groups it steps (``self.opt = Adam(self.critic...)``), and
        # ``self.params = model.parameters()`` the module's
        return val
    container = val.kind == "container"
    return Val(kind=val.kind, grad=val.grad, groups=val.groups, leaf=val.leaf, elem_kind=val.elem_kind,
               parts=val.parts if container else None, keys=val.keys if container else None,
               module=val.module if container else None, origin=val.origin)




_LITERAL_DEFAULTS = frozenset({cst.Integer, cst.Float, cst.SimpleString, cst.ConcatenatedString, cst.Tuple,
                               cst.List, cst.Dict, cst.Lambda})


def _constant_parameters(ctx: ModuleContext, function: cst.FunctionDef) -> Dict[str, object]:
    """The parameters of ``function`` every call of this file with grad on passes the same string literal,
    ``True`` or ``False`` (or omits, when the default is that), and that its body never rebinds."""
    passed = ctx.call_constants.get(function.name.value)
    if not passed:
        return {}
    defaults = {name: sem.constant_key(param.default) if param.default is not None else None
                for name, param in parameter_list(function)}
    constants = {}
    for name, value in passed.items():
        if value is None:
            value = defaults.get(name)
        if isinstance(value, (str, bool)):
            constants[name] = value
    if constants:
        for node in walk(function.body):
            for rebound in _rebound_names(node):
                constants.pop(rebound, None)
    return constants


def _params_may_require_grad(ctx: ModuleContext, function: cst.FunctionDef, class_name: Optional[str],
                             imports: ImportMap) -> Optional[str]:
    """Is a parameter of ``function`` taken for a tensor that may require grad before any caller says so?
    By default only those of a module's methods (``forward(self, x)``: a network's activations; a class is
    a module when it derives from nn.Module here or defines ``forward``) and of the functions nested in
    one; a plain function's (``def rescale(betas)``, a schedule, a data transform) requires grad only by
    what this file's calls pass it. ``assume-params-are-tensors`` takes every parameter for one. The
    answer is the evidence (a values.GradOrigin kind), None for no."""
    if ctx.assume_params_are_tensors:
        return ASSUMED
    if class_name is not None and (class_name in ctx.user_modules or class_name in ctx.forward_classes):
        # ``__init__`` is handed the configuration (sizes, flags, a config object), not activations: what
        # it keeps requires grad by evidence only (nn.Parameter, a module it builds)
        return METHOD_INPUT if function.name.value != "__init__" else None
    if class_name is None and function.name.value in _autograd_callbacks(ctx, imports):
        return AUTOGRAD_CALLBACK
    return METHOD_INPUT if ctx.closure_owner.get(function) in ctx.grad_param_units else None


def _autograd_callbacks(ctx: ModuleContext, imports: ImportMap) -> Set[str]:
    """Names of this file's functions handed to ``torch.autograd.functional.jacobian(func, x)``,
    ``torch.func.grad(f)``, ``checkpoint(fn, h)`` and the like: torch calls them with tensors that require
    grad (evidence for their parameters, as a caller passing one would be)."""
    found = getattr(ctx, "autograd_callbacks", None)
    if found is None:
        found = set()
        for node in walk(ctx.module):
            if type(node) is cst.Call and node.args and type(node.args[0].value) is cst.Name:
                callee = imports.resolve(node.func) or ""
                if callee.startswith(AUTOGRAD_CALLER_MODULES) or callee in AUTOGRAD_CALLER_FUNCTIONS:
                    found.add(node.args[0].value.value)
        ctx.autograd_callbacks = found
    return found


def _parameter_value(ctx: ModuleContext, interp: Interpreter, name: str, param: cst.Param,
                     grad_origin: Optional[str] = ASSUMED) -> Val:
    """What parameter ``name`` holds before any caller says; ``grad_origin``: why it may require grad (a
    values.GradOrigin kind), None when nothing says it does."""
    may_require_grad = grad_origin is not None
    origin = GradOrigin(param.name, grad_origin, interp.unit.function_name or "") if may_require_grad else None
    if param.star in ("*", "**"):
        # *args is a tuple, **kwargs a dict: containers of whatever the caller passed
        element = Val(kind=UNKNOWN, grad=MAYBE if may_require_grad else NO,
                      groups=frozenset({"param:" + name}), origin=origin)
        return Val(kind="container", grad=element.grad, groups=element.groups, elem_kind=UNKNOWN, origin=origin)
    if param.annotation is not None:
        annotated = sem.from_annotation(interp, param.annotation)
        if annotated is not None:
            if annotated.kind != OTHER:
                # a declared ``Tensor`` parameter may require grad at either level (a public tensor API:
                # ``def autocontrast(image: Tensor)``); what its callers pass in this file still refines it
                grad = NO if looks_like_integer_tensor(name) else annotated.grad
                if grad != NO and not may_require_grad:
                    origin = GradOrigin(param.name, ANNOTATED, interp.unit.function_name or "")
                return Val(kind=annotated.kind, grad=grad, groups=frozenset({"param:" + name}),
                           module=annotated.module, origin=origin if grad != NO else None)
            return annotated
    default = param.default
    if type(default) in (cst.Name, cst.Attribute):
        # act_layer=nn.ReLU: calls of the parameter build that module (callers passing another class
        # are not followed; the default is what the code does when they pass none)
        held = sem.torch_callable(interp, interp.unit.imports.resolve(default))
        if held.callee is not None:
            return held
    if type(default) is cst.Call:  # act_layer=partial(nn.ReLU, inplace=True)
        held = sem.partial_default(interp, default)
        if held.callee is not None:
            return held
    if looks_like_count(name):
        return OTHER_VAL
    if looks_like_integer_tensor(name):
        return Val(kind=UNKNOWN, grad=NO, groups=frozenset({"param:" + name}))
    if type(default) in _LITERAL_DEFAULTS:
        return OTHER_VAL
    if type(default) is cst.Name and default.value in ("True", "False"):
        return OTHER_VAL
    if type(default) is cst.UnaryOperation:
        return OTHER_VAL
    if not may_require_grad:
        return Val(kind=UNKNOWN, grad=NO, groups=frozenset({"param:" + name}))
    return Val(kind=UNKNOWN, grad=MAYBE, groups=frozenset({"param:" + name}), origin=origin)


def _summarize_autograd_function(cls: cst.ClassDef, knowledge) -> Optional[sem.FunctionSummary]:
    """Which ``apply`` arguments (and whether the output) forward passes to ``ctx.save_for_backward``, and
    which it writes in place (``x.clamp_(lo, hi); ctx.mark_dirty(x)``): ``apply`` writes those arguments."""
    forward = next((s for s in _block(cls.body) if type(s) is cst.FunctionDef and s.name.value == "forward"),
                   None)
    if forward is None:
        return None
    params = [name for name, _ in parameter_list(forward)][1:]  # drop ctx
    saved_names: List[str] = []
    returned: List[str] = []

    for node in walk(forward):
        if type(node) is cst.Call and type(node.func) is cst.Attribute \
                and node.func.attr.value == "save_for_backward":
            saved_names.extend(a.value.value for a in node.args if type(a.value) is cst.Name)
        elif type(node) is cst.Return and node.value is not None:
            values = [e.value for e in node.value.elements] if type(node.value) is cst.Tuple else [node.value]
            for value in values:
                # ``return x.mul_(factor)`` returns x itself
                while type(value) is cst.Call and type(value.func) is cst.Attribute \
                        and knowledge.is_inplace_method(value.func.attr.value):
                    value = value.func.value
                if type(value) is cst.Name:
                    returned.append(value.value)
    written = parameter_writes(forward, knowledge)
    dirty = tuple(index for index, name in enumerate(params) if name in written)
    # the dirty input returned: torch hands back that very tensor (its version moved by the write)
    returns_dirty = next((index for index in dirty if params[index] in returned), None)
    inputs = tuple(sorted({params.index(n) for n in saved_names if n in params}))
    saves_result = any(n in returned and n not in params for n in saved_names)
    return sem.FunctionSummary(cls.name.value, inputs, saves_result, cls, dirty, returns_dirty)
