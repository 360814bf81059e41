"""What a function does to its parameters: which ones it writes in place before rebinding them
(``def scale_(t): t.mul_(2)``), through loops over a module's parameters or submodules, and its
parameter list. Read by the module analysis (helpers, hooks, autograd Functions) and by the semantics of
calls to a file's own functions."""

from __future__ import annotations

from typing import Dict, List, Optional, Set, Tuple

import libcst as cst

from inplace_lint.analysis.values import Val
from inplace_lint.knowledge import ALIASING_VIEW_METHODS, PYTHON_CONTAINER_METHODS
from inplace_lint.syntax.names import AUG_SYMBOLS, walk
from inplace_lint.syntax import triggers
from inplace_lint.syntax.triggers import LAYER_PARAMETERS


# How a method's writes to its own tensors are keyed among the parameters it writes ("self.queue"),
# whatever its first parameter is named (parameter_writes)
SELF_ATTRIBUTE = "self."



def parameter_list(function: cst.FunctionDef) -> List[Tuple[str, cst.Param]]:
    p = function.params
    out = []
    for param in list(p.posonly_params) + list(p.params):
        out.append((param.name.value, param))
    if type(p.star_arg) is cst.Param:
        out.append((p.star_arg.name.value, p.star_arg))
    for param in p.kwonly_params:
        out.append((param.name.value, param))
    if p.star_kwarg is not None:
        out.append((p.star_kwarg.name.value, p.star_kwarg))
    return out


_NOT_TENSOR_ELEMENTS = (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString)


def container_parameters(function: cst.FunctionDef, params) -> frozenset:
    """The parameters of ``function`` its body treats as a Python list or dict, never a tensor: called with
    a method only those have (``feat_cache.append(x)``, ``cache.items()``), given a ``None`` or string
    element (``feat_cache[idx] = "Rep"``), or asked whether an element is ``None`` (``feat_cache[idx] is
    None``). Writing their elements rebinds a slot; it writes no tensor."""
    found = set()
    if not params:
        return frozenset()
    for node in walk(function.body, skip_nested_functions=True):
        kind = type(node)
        if kind is cst.Call:
            func = node.func
            if type(func) is cst.Attribute and type(func.value) is cst.Name and func.value.value in params \
                    and func.attr.value in PYTHON_CONTAINER_METHODS:
                found.add(func.value.value)
        elif kind is cst.Assign:
            value = node.value
            if type(value) in _NOT_TENSOR_ELEMENTS or (type(value) is cst.Name and value.value == "None"):
                for target in node.targets:
                    name = _subscripted_name(target.target)
                    if name in params:
                        found.add(name)
        elif kind is cst.Comparison and len(node.comparisons) == 1:
            test = node.comparisons[0]
            name = _subscripted_name(node.left)
            if name in params and type(test.operator) in (cst.Is, cst.IsNot) and \
                    type(test.comparator) is cst.Name and test.comparator.value == "None":
                found.add(name)
    return frozenset(found)


def _subscripted_name(node) -> Optional[str]:
    """``cache`` of ``cache[i]`` (or of ``cache[i][j]``)."""
    if type(node) is not cst.Subscript:
        return None
    while type(node) is cst.Subscript:
        node = node.value
    return node.value if type(node) is cst.Name else None


def parameter_writes(function: cst.FunctionDef, knowledge, self_name: Optional[str] = None,
                      callee_writes=None) -> Dict[str, List[Tuple[cst.CSTNode, str, str]]]:
    """Parameters a helper function writes in place, before any rebinding of the name:
    ``def scale_(t): t.mul_(2)``.

    A call ``scale_(y)`` then writes ``y``; the finding goes on the helper's own in-place line. For a
    method (``self_name``), writes to ``self.<attr>`` tensors too, keyed ``"self.<attr>"``.
    ``callee_writes(call)``: the (parameters, writes) of the function or method of this file a call runs,
    if it writes a parameter -- passing a parameter on to it writes that parameter too (``def forward(self,
    score): self.regularise(score)`` with ``score += self.bias`` in ``regularise``).
    """
    params = {name for name, _ in parameter_list(function)}
    owner = {name: name for name in params}  # written name -> the parameter it writes
    module_owner: Dict[str, str] = {}  # loop name over a parameter's submodules -> the parameter
    writes: Dict[str, List[Tuple[cst.CSTNode, str, str]]] = {}
    # where (in source order) each name is first rebound: a write before that point, in straight-line code
    # or on a loop's first pass, writes what the caller passed (seqs *= mask; ...; seqs = seqs * 2)
    first_rebound: Dict[str, int] = {}
    order: Dict[int, int] = {}  # id(node) -> its place in source order
    passed_at: Dict[int, int] = {}  # a write in a callee (its node's id) -> the place of the call here
    assigned_from: Dict[int, int] = {}  # id(an assignment's value) -> the assignment's place
    # exact types: LibCST's nodes are final, and an ABC isinstance check costs several plain ones
    name_type, subscript_type, attribute_type = cst.Name, cst.Subscript, cst.Attribute
    def own_tensor(node) -> Optional[str]:  # self.queue -> "self.queue"
        if self_name and type(node) is attribute_type and type(node.value) is name_type \
                and node.value.value == self_name:
            return SELF_ATTRIBUTE + node.attr.value
        return None

    for place, node in enumerate(walk(function, skip_nested_functions=True)):
        kind = type(node)
        order[id(node)] = place
        if kind is cst.Assign:
            assigned_from[id(node.value)] = place  # ``x = self.m(x)``: the call runs before x is rebound
            for target in node.targets:
                t = target.target
                source = triggers.alias_source(node.value, owner, CST_SHAPES) if type(t) is name_type else None
                if source is not None and t.value not in owner:
                    owner[t.value] = owner[source]  # x = token: writing x writes the parameter
                elif type(t) is name_type and not _aliases_itself(node.value, t.value, knowledge):
                    first_rebound.setdefault(t.value, place)
                    if t.value not in params:
                        owner.pop(t.value, None)  # an alias rebound: its later writes are its own
                elif type(t) is subscript_type and type(t.value) is name_type and t.value.value in owner:
                    writes.setdefault(owner[t.value.value], []).append((node, "subscript", "[...] ="))
                elif type(t) is subscript_type and own_tensor(t.value):
                    writes.setdefault(own_tensor(t.value), []).append((node, "subscript", "[...] ="))
                elif type(t) is subscript_type and (holder := _held_by_parameter(t.value, owner, self_name)):
                    writes.setdefault(holder, []).append((node, "parameter_update", node))
        elif kind is cst.AugAssign:
            t = node.target
            base = t.value if type(t) is subscript_type else t
            held = type(base) is not name_type
            holder = _held_by_parameter(base, owner, self_name) if held else owner.get(base.value)
            if holder is not None:
                form = "parameter_update" if held else "subscript" if type(t) is subscript_type else "augassign"
                op_text = node if held else AUG_SYMBOLS.get(type(node.operator), "=")
                writes.setdefault(holder, []).append((node, form, op_text))
        elif kind is cst.Call:
            f = node.func
            if (type(f) is attribute_type and type(f.value) is name_type and f.value.value in owner
                    and knowledge.is_inplace_method(f.attr.value)):
                writes.setdefault(owner[f.value.value], []).append((node, "method", f.attr.value + "()"))
            elif (type(f) is attribute_type and type(f.value) is attribute_type
                  and type(f.value.value) is name_type and f.value.value.value in module_owner
                  and knowledge.is_inplace_method(f.attr.value)):
                # ``for m in model.modules(): m.mask.copy_(new)`` writes one of the model's tensors
                writes.setdefault(module_owner[f.value.value.value], []).append(
                    (node, "method", f.attr.value + "()"))
            elif type(f) is attribute_type and own_tensor(f.value) and knowledge.is_inplace_method(f.attr.value):
                writes.setdefault(own_tensor(f.value), []).append((node, "method", f.attr.value + "()"))
            elif type(f) is attribute_type and knowledge.is_inplace_method(f.attr.value) and \
                    (holder := _held_by_parameter(f.value, owner, self_name)):
                # ``layer.weight.mul_(1 - lr)``: updates a tensor of the module passed as ``layer`` (no rewrite
                # keeps both the update and what a forward saved: a parameter update, as a step is)
                writes.setdefault(holder, []).append((node, "parameter_update", node))
            elif callee_writes is not None:
                found = callee_writes(node)
                if found is not None:
                    callee_params, callee_sites = found
                    bound = bind_arguments(callee_params, node, [None] * len(node.args)) or {}
                    for param, (_val, arg) in bound.items():
                        if type(arg) is name_type and arg.value in owner and param in callee_sites:
                            for site in callee_sites[param]:
                                # written when the call runs: before the statement that holds it rebinds
                                passed_at[id(site[0])] = assigned_from.get(id(node), place + 1) - 1
                                writes.setdefault(owner[arg.value], []).append(site)
        elif kind is cst.For:
            # ``for t, s in zip(teacher.parameters(), ...)``: writing t writes the module passed as teacher
            owner.update(triggers.parameter_loop_names(node.iter, node.target, params, CST_SHAPES))
            module_owner.update(triggers.module_loop_names(node.iter, node.target, params, CST_SHAPES))
    kept = {}
    containers = container_parameters(function, params)
    without_grad = _runs_only_without_grad(function, set(writes) & params)
    for param, sites in writes.items():
        if param in without_grad:
            # ``if x.requires_grad: return ...`` before it: the write runs only on a tensor that requires no
            # grad, which the op that made it did not record (nor save as its result)
            sites = [site for site in sites if id(site[0]) not in without_grad[param]]
        if param in containers:
            # ``feat_cache[idx] = x`` on a list: a slot rebound, no tensor written
            sites = [site for site in sites if site[1] != "subscript" or type(site[0]) is not cst.Assign]
        rebound = first_rebound.get(param, len(order))
        before = [site for site in sites if passed_at.get(id(site[0]), order.get(id(site[0]), 0)) < rebound]
        if before:
            kept[param] = before
    return kept


def _requires_grad_test(test) -> Optional[Tuple[str, bool]]:
    """(name, True) for ``name.requires_grad``, (name, False) for ``not name.requires_grad``."""
    negated = False
    if type(test) is cst.UnaryOperation and type(test.operator) is cst.Not:
        test, negated = test.expression, True
    if type(test) is cst.Attribute and test.attr.value == "requires_grad" and type(test.value) is cst.Name:
        return test.value.value, not negated
    return None


def _always_exits(block) -> bool:
    statements = list(getattr(block, "body", ()))
    if not statements:
        return False
    last = statements[-1]
    return type(last) is cst.SimpleStatementLine and any(type(s) in (cst.Return, cst.Raise) for s in last.body)


def _runs_only_without_grad(function: cst.FunctionDef, names: Set[str]) -> Dict[str, Set[int]]:
    """For each of ``names``: the ids of the nodes that run only when it requires no grad, by an ``if``
    on its ``requires_grad`` at the function's top level (the else branch; what follows a branch on
    ``requires_grad`` that returns or raises)."""
    found: Dict[str, Set[int]] = {}
    if not names:
        return found
    statements = list(function.body.body) if hasattr(function.body, "body") else []
    for index, statement in enumerate(statements):
        if type(statement) is not cst.If:
            continue
        tested = _requires_grad_test(statement.test)
        if tested is None or tested[0] not in names:
            continue
        name, requires = tested
        if requires:
            guarded = [statement.orelse] if statement.orelse is not None else []
            if _always_exits(statement.body):
                guarded += statements[index + 1:]
        else:
            guarded = [statement.body]
        for part in guarded:
            found.setdefault(name, set()).update(id(node) for node in walk(part))
    return found


# Attributes whose tensor shares no version counter with what holds it (``.data``), or is no input a
# forward saves (``.grad``)
_UNTRACKED_ATTRIBUTES = frozenset({"data", "grad"})


def _held_by_parameter(node, owner: Dict[str, str], self_name: Optional[str]) -> Optional[str]:
    """The parameter whose layer's weight or bias ``node`` is (``layer.weight``, ``model.fc2.bias``), or
    None; never ``self`` (a method's writes to its own tensors are keyed by attribute) nor through
    ``.data``/``.grad`` (inplace_lint.syntax.select keeps such a helper's callers)."""
    if type(node) is not cst.Attribute or node.attr.value not in LAYER_PARAMETERS:
        return None
    while type(node) is cst.Attribute:
        if node.attr.value in _UNTRACKED_ATTRIBUTES:
            return None
        node = node.value
    if type(node) is cst.Name and node.value != self_name:
        return owner.get(node.value)
    return None


def _aliases_itself(value, name: str, knowledge) -> bool:
    """``batch = batch.div_(255.0)``, ``seqs = seqs.transpose(0, 1)`` (or a chain of them): in-place ops and
    views of ``name``, so the name still shares what the caller passed (a write through it writes that)."""
    while type(value) is cst.Call and type(value.func) is cst.Attribute and (
            knowledge.is_inplace_method(value.func.attr.value) or value.func.attr.value in ALIASING_VIEW_METHODS):
        value = value.func.value
    return type(value) is cst.Name and value.value == name



class _CstShapes(triggers.Shapes):
    """How LibCST spells the shapes inplace_lint.syntax.triggers reads."""

    def name(self, node):
        return node.value if type(node) is cst.Name else None

    def method_call(self, node):
        if type(node) is cst.Call and type(node.func) is cst.Attribute:
            return node.func.value, node.func.attr.value, bool(node.args)
        return None

    def function_call(self, node):
        if type(node) is cst.Call and type(node.func) is cst.Name:
            return node.func.value, [arg.value for arg in node.args]
        return None

    def elements(self, node):
        return [element.value for element in node.elements] if type(node) in (cst.Tuple, cst.List) else None

    def branches(self, node):
        return (node.body, node.orelse) if type(node) is cst.IfExp else None


CST_SHAPES = _CstShapes()


def bind_arguments(params: List[str], call: cst.Call,
                    vals: List[Val]) -> Optional[Dict[str, Tuple[Val, object]]]:
    """The call's arguments (already evaluated, ``vals`` in the order of ``call.args``) by parameter name;
    None when a starred argument hides which is which."""
    bound: Dict[str, Tuple[Val, object]] = {}
    position = 0
    for arg, val in zip(call.args, vals):
        if arg.star:
            return None
        if arg.keyword is not None:
            bound[arg.keyword.value] = (val, arg.value)
            continue
        if position < len(params):
            bound[params[position]] = (val, arg.value)
        position += 1
    return bound
