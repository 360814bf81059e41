"""Autofixes: rewrite an in-place write so that the tensor autograd saved is left alone.

:func:`attach` is called by the rules once per finding (inplace_lint.rules.report) with the plan the
finding's rule makes (each rule's unit plans from the helpers here); it returns the finding with a
:class:`~inplace_lint.model.findings.Fix` (title, applicability, text edits) and with the fix title
appended to the message, or the finding unchanged when no fix is possible. inplace_lint.fixkit.apply
applies fixes to a whole text in rounds (lint, apply the non-overlapping fixes bottom-up, lint again).

Edits are computed from LibCST positions on the original text (1-based lines, 0-based columns, end
exclusive). Only the rewritten range is replaced, and every sub-expression is copied from the source as
written (``Module.code_for_node``), so comments and formatting around and inside the edit are kept. A
lint hands over the analysis's parse (:func:`reuse`); otherwise the parse is cached per source text.

What each form becomes out of place (:func:`plan_out_of_place`; see AGI001's "Fix safety" section for
why); each rule's unit (inplace_lint.rules.<unit>.report) plans its own fixes from these helpers:

==================  ===========================================  ======================================
form                written                                      fixed
==================  ===========================================  ======================================
augassign           ``b *= c + 1``                               ``b = b * (c + 1)``
element_augassign   ``laterals[i] += up`` (a list's element)     ``laterals[i] = laterals[i] + up``
method              ``x.add_(y)`` (a statement)                  ``x = x.add(y)``
                    ``x.zero_()`` (no out-of-place twin)         ``x = x.clone().zero_()``
                    ``z = x.relu_()``                            ``z = x.relu()`` / ``z = x = x.relu()``
                    ``h[2:].zero_()`` (a view of local ``h``)    ``h = h.clone()`` inserted before
function            ``torch.relu_(x)``                           ``x = torch.relu(x)``
                    ``h = Fn.apply(h)`` (a custom Function that  ``h = Fn.apply(h.clone())``
                    marks its first input dirty)
apply_input         ``Fn.apply(s, h)`` (its forward writes a     no fix
                    later input in place)
inplace_kwarg       ``z = F.relu(y, inplace=True)``              ``z = F.relu(y)`` (``z = y = ...`` when
                                                                 ``y`` is read later)
                    ``F.relu(h, inplace=True)`` (a statement)    ``h = F.relu(h)``
module_ctor         ``nn.ReLU(inplace=True)`` in nn.Sequential   ``nn.ReLU()``
module_call         ``self.act(h)``, ``self.act = nn.ReLU(True)``  ``nn.ReLU()`` in the constructor
subscript           ``y[0] = 0``                                 ``y = y.clone()`` inserted before
out_kwarg           ``torch.mul(x, 2, out=x)``                   ``x = torch.mul(x, 2)``
optimizer_step      ``opt.step()``                               no fix
parameter_update    ``target.load_state_dict(...)``,             no fix
                    a helper's ``layer.weight.mul_(d)``
==================  ===========================================  ======================================
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Dict, Iterable, Iterator, List, Optional, Sequence, Set, Tuple

import libcst as cst
from libcst.metadata import ExpressionContext, ExpressionContextProvider, MetadataWrapper

from inplace_lint.model import debug
from inplace_lint.model.findings import Edit, Finding, Fix, Position
from inplace_lint.knowledge import (
    EXTRA_METHOD_TWINS, NOT_DATA_WRITES, TWINS_WITH_ANOTHER_RESULT, WRITE_THROUGH_ATTRIBUTES,
)
from inplace_lint.syntax.lines import LineIndex
from inplace_lint.syntax.names import child_nodes, code_positions, is_docstring, walk
from inplace_lint.knowledge import load

TITLE_WIDTH = 72

# --------------------------------------------------------------------------------------------------
# Which in-place methods have an out-of-place twin with the same arguments and the same result.

# The exceptions are torch facts in the knowledge (EXTRA_METHOD_TWINS, TWINS_WITH_ANOTHER_RESULT,
# NOT_DATA_WRITES: knowledge/tensor_names.json, checked against torch).

def _knowledge():

    return load()


@lru_cache(maxsize=None)
def _function_basenames() -> frozenset:
    """Last names of the torch functions ops.json knows (``relu`` for ``torch.relu``, ``F.relu``)."""
    k = _knowledge()
    names = set()
    for name in k.names():
        info = k.lookup(name)
        if info is not None and info.kind == "function":
            names.add(name.rsplit(".", 1)[-1].split("#")[0])
    return frozenset(names)


def method_twin(name: str) -> Optional[str]:
    """``add_`` -> ``add``: the out-of-place Tensor method computing what the in-place one writes."""
    if not name.endswith("_") or name.startswith("_") or name in NOT_DATA_WRITES:
        return None
    twin = name[:-1]
    if twin in TWINS_WITH_ANOTHER_RESULT:
        return None
    if twin in EXTRA_METHOD_TWINS or _knowledge().method(twin) is not None:
        return twin
    return None


def function_twin(name: str) -> Optional[str]:
    """``relu_`` -> ``relu`` (``torch.relu_``, ``F.relu_``), when torch has the out-of-place function."""
    if not name.endswith("_") or name.startswith("_") or name in NOT_DATA_WRITES:
        return None
    twin = name[:-1]
    if twin in TWINS_WITH_ANOTHER_RESULT:
        return None
    return twin if twin in _function_basenames() else None


# --------------------------------------------------------------------------------------------------
# The parsed source, cached per text.

class _Source:
    """One parse of a file with what the fixes need: positions, parents, nodes by range, line offsets."""

    def __init__(self, text: str, module: Optional[cst.Module] = None, positions=None):
        self.text = text
        self.module = module if module is not None else cst.parse_module(text)
        self.wrapper = MetadataWrapper(self.module, unsafe_skip_copy=True)
        if positions is None:
            positions = code_positions(self.module, self.wrapper)
        self.positions = positions
        # Parents and nodes by range, for the top-level statements a fix looks at (``ensure``): indexing
        # the whole tree cost as much as the analysis of a file with findings in a few functions.
        self.parents: Dict[cst.CSTNode, cst.CSTNode] = {}
        self.by_range: Dict[Tuple[int, int, int, int], List[cst.CSTNode]] = {}
        self._spans: Optional[List[Tuple[int, int, int]]] = None  # (first line, last line, index in body)
        self._firsts: Optional[List[int]] = None  # the spans' first lines, when in order (see ensure)
        self._indexed: set = set()
        self.lines = LineIndex(text)
        self.line_starts = self.lines.starts
        self._contexts = None
        self._torch_name: Optional[str] = None
        self._torch_name_done = False
        self.declared: Dict[cst.CSTNode, Set[str]] = {}  # scope -> names it declares global or nonlocal
        self._names_under: Dict[cst.CSTNode, Dict[str, List[cst.Name]]] = {}

    # -- positions and text ------------------------------------------------------------------------
    def start(self, node: cst.CSTNode) -> Position:
        p = self.positions[node].start
        return Position(p.line, p.column)

    def end(self, node: cst.CSTNode) -> Position:
        p = self.positions[node].end
        return Position(p.line, p.column)

    def offset(self, pos: Position) -> int:
        return self.lines.offset(pos.line, pos.column)

    def position(self, offset: int) -> Position:
        return Position(*self.lines.position(offset))

    def line(self, number: int) -> str:
        return self.lines.line(number)

    def code(self, node: cst.CSTNode) -> str:
        """The node's text exactly as written in the source, with its own parentheses."""
        start, end = self.start(node), self.end(node)
        lpar, rpar = getattr(node, "lpar", ()), getattr(node, "rpar", ())
        if lpar and rpar and lpar[0] in self.positions and rpar[-1] in self.positions:
            start, end = self.start(lpar[0]), self.end(rpar[-1])
        return self.slice(start, end)

    def slice(self, start: Position, end: Position) -> str:
        return self.text[self.offset(start):self.offset(end)]

    # -- tree ------------------------------------------------------------------------------------------
    def ensure(self, lines: Iterable[int]) -> None:
        """Index (parents, nodes by range) the top-level statements holding any of ``lines``."""
        body = self.module.body
        if self._spans is None:
            spans = []
            span = getattr(self.positions, "span", None)  # without positioning every statement
            for index, statement in enumerate(body):
                if span is not None:
                    spans.append((*span(index), index))
                    continue
                rng = self.positions.get(statement)
                if rng is not None:
                    spans.append((rng.start.line, rng.end.line, index))
                else:  # no position (never expected): index it whatever the lines
                    spans.append((0, 1 << 30, index))
            self._spans = spans
            firsts = [first for first, _last, _index in spans]
            # statements in line order, none overlapping the next: each line's statement found by bisection
            # (a file with a finding in each of thousands of functions asks once per finding)
            self._firsts = firsts if all(a[1] < b[0] for a, b in zip(spans, spans[1:])) else None
        if self._firsts is not None:
            import bisect

            for line in lines:
                at = bisect.bisect_right(self._firsts, line) - 1
                if at >= 0:
                    first, last, index = self._spans[at]
                    if first <= line <= last and index not in self._indexed:
                        self._indexed.add(index)
                        self._index(body[index])
            return
        for first, last, index in self._spans:
            if index not in self._indexed and any(first <= line <= last for line in lines):
                self._indexed.add(index)
                self._index(body[index])

    def _index(self, statement: cst.CSTNode) -> None:
        self.parents[statement] = self.module
        positions = self.positions
        by_range = self.by_range
        parents = self.parents
        stack: List[cst.CSTNode] = [statement]
        while stack:
            node = stack.pop()
            rng = positions.get(node)
            if rng is not None:
                by_range.setdefault((rng.start.line, rng.start.column, rng.end.line, rng.end.column), []).append(node)
            for child in _children(node):
                parents[child] = node
                stack.append(child)

    def find(self, start: Position, end: Position, kinds) -> Optional[cst.CSTNode]:
        for node in self.by_range.get((start.line, start.column, end.line, end.column), ()):
            if isinstance(node, kinds):
                return node
        return None

    def ancestors(self, node: cst.CSTNode) -> Iterator[cst.CSTNode]:
        while node in self.parents:
            node = self.parents[node]
            yield node

    def contains(self, outer: cst.CSTNode, inner: cst.CSTNode) -> bool:
        a, b = self.positions[outer], self.positions[inner]
        starts_before = (a.start.line, a.start.column) <= (b.start.line, b.start.column)
        return starts_before and (b.end.line, b.end.column) <= (a.end.line, a.end.column)

    def names_under(self, root: cst.CSTNode) -> Dict[str, List[cst.Name]]:
        """The ``Name`` nodes under ``root``, by value (one walk per root: a fix asks of a function's body
        once for every name it may rewrite)."""
        found = self._names_under.get(root)
        if found is None:
            found = self._names_under[root] = {}
            name_type = cst.Name
            for node in walk(root):  # Names never sit in the formatting fields walk leaves out
                if type(node) is name_type:
                    found.setdefault(node.value, []).append(node)
        return found

    def contexts(self):
        if self._contexts is None:
            self._contexts = self.wrapper.resolve(ExpressionContextProvider)
        return self._contexts

    def torch_name(self) -> Optional[str]:
        """How this file spells ``torch.no_grad`` (``torch.no_grad``, ``th.no_grad``, ``no_grad``)."""
        if self._torch_name_done:
            return self._torch_name
        self._torch_name_done = True
        found = None
        for statement in self.module.body:
            if not isinstance(statement, cst.SimpleStatementLine):
                continue
            for small in statement.body:
                if isinstance(small, cst.Import):
                    for alias in small.names:
                        if _dotted(alias.name) == "torch":
                            bound = alias.asname.name.value if alias.asname else "torch"
                            found = found or f"{bound}.no_grad"
                elif isinstance(small, cst.ImportFrom) and small.module is not None:
                    if _dotted(small.module) == "torch" and not isinstance(small.names, cst.ImportStar):
                        for alias in small.names:
                            if isinstance(alias.name, cst.Name) and alias.name.value == "no_grad":
                                found = found or (alias.asname.name.value if alias.asname else "no_grad")
        self._torch_name = found
        return found


_CHILD_FIELDS: Dict[type, Tuple[str, ...]] = {}


def _children(node: cst.CSTNode) -> List[cst.CSTNode]:
    """``node.children`` without LibCST's visitor machinery (which rebuilds the tree as it walks)."""
    kind = type(node)
    fields = _CHILD_FIELDS.get(kind)
    if fields is None:
        fields = _CHILD_FIELDS[kind] = tuple(f.name for f in dataclasses.fields(node))
    return child_nodes(node, fields)  # every field: a fix may look for whitespace nodes too


@lru_cache(maxsize=4)
def _parse(source: str) -> _Source:
    # Keyed by the text itself (its hash is cached by Python; equal texts share one parse).
    return _Source(source)


def reuse(parsed_text: str, module: cst.Module, positions) -> _Source:
    """The analysis's parse (and its positions), for the fixes of its findings, instead of parsing again.
    ``parsed_text`` is what was parsed: the linted text itself, or the line-preserving reduced text
    (inplace_lint.syntax.select), which keeps every line of the functions a finding can be in unchanged, so
    every position and every line a fix reads or edits is the same as in the linted text."""
    return _Source(parsed_text, module, positions)


def _dotted(node) -> str:
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        base = _dotted(node.value)
        return f"{base}.{node.attr.value}" if base else ""
    return ""


# --------------------------------------------------------------------------------------------------
# Statement context: where the in-place expression sits.


@dataclass
class _Stmt:
    small: cst.BaseSmallStatement
    kind: str  # "expr" (the call is the statement), "assign" (``L = call``), "return", "nested"
    lhs: Optional[cst.BaseExpression] = None  # for "assign"


def _statement(s: _Source, node: cst.CSTNode) -> Optional[_Stmt]:
    small = None
    for anc in s.ancestors(node):
        if isinstance(anc, cst.BaseSmallStatement):
            small = anc
            break
        if isinstance(anc, (cst.BaseCompoundStatement, cst.Lambda, cst.BaseComp)):
            return None  # an if/while test, a lambda body, a comprehension: no statement to rewrite
    if small is None:
        return None
    if isinstance(small, cst.Expr) and small.value is node and not getattr(node, "lpar", ()):
        return _Stmt(small, "expr")
    if (
        isinstance(small, cst.Assign)
        and small.value is node
        and len(small.targets) == 1
        and isinstance(small.targets[0].target, (cst.Name, cst.Attribute))
    ):
        return _Stmt(small, "assign", small.targets[0].target)
    if isinstance(small, cst.Return) and small.value is node:
        return _Stmt(small, "return")
    return _Stmt(small, "nested")


def _scope(s: _Source, node: cst.CSTNode) -> cst.CSTNode:
    for anc in s.ancestors(node):
        if isinstance(anc, (cst.FunctionDef, cst.Lambda)):
            return anc
    return s.module


def _name_reads(s: _Source, root: cst.CSTNode, name: str) -> Iterator[cst.Name]:
    """Every ``Name`` reading ``name`` under ``root`` (augmented-assignment targets count as reads)."""
    contexts = s.contexts()
    for node in s.names_under(root).get(name, ()):
        parent = s.parents.get(node)
        if isinstance(parent, cst.Attribute) and parent.attr is node:
            continue
        if isinstance(parent, cst.Arg) and parent.keyword is node:
            continue
        context = contexts.get(node)
        if context == ExpressionContext.LOAD:
            yield node
        elif isinstance(parent, cst.AugAssign) and parent.target is node:
            yield node


def _read_later(s: _Source, name: str, stmt: _Stmt) -> bool:
    """May ``name`` be read after ``stmt`` (conservatively: later in the function, anywhere in an enclosing
    loop, in a nested function, or in an enclosing ``finally``)? A ``return`` ends the path."""
    scope = _scope(s, stmt.small)
    if name in _declared(s, scope):
        return True
    end = s.end(stmt.small)
    loops = [a for a in _ancestors_until(s, stmt.small, scope) if isinstance(a, (cst.For, cst.While))]
    outer_loop = loops[-1] if loops else None
    enclosing = _ancestors_until(s, stmt.small, scope)
    finals = [a.finalbody for a in enclosing if isinstance(a, cst.Try) and a.finalbody]
    for read in _name_reads(s, scope, name):
        if any(isinstance(a, (cst.FunctionDef, cst.Lambda)) for a in _ancestors_until(s, read, scope)):
            return True  # a closure may run at any time
        if stmt.kind == "return":
            if any(s.contains(f, read) for f in finals):
                return True
            continue
        if (s.start(read).line, s.start(read).column) >= (end.line, end.column):
            return True
        if outer_loop is not None and s.contains(outer_loop, read):
            return True
    return False


def _ancestors_until(s: _Source, node: cst.CSTNode, stop: cst.CSTNode) -> List[cst.CSTNode]:
    out = []
    for anc in s.ancestors(node):
        if anc is stop:
            break
        out.append(anc)
    return out


def _declared(s: _Source, scope: cst.CSTNode) -> Set[str]:
    """The names ``scope`` declares global or nonlocal (its nested definitions aside), worked out once per
    scope: a file's fixes ask it for every name they rebind, and the module is a scope too."""
    found = s.declared.get(scope)
    if found is None:
        found = s.declared[scope] = set()
        stack = [scope]
        while stack:
            node = stack.pop()
            if isinstance(node, (cst.Global, cst.Nonlocal)):
                found.update(n.name.value for n in node.names)
            if node is not scope and isinstance(node, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
                continue
            stack.extend(_children(node))
    return found


def _read_elsewhere_in(s: _Source, stmt: _Stmt, name: str, except_node: cst.CSTNode) -> bool:
    return any(read is not except_node for read in _name_reads(s, stmt.small, name))


# --------------------------------------------------------------------------------------------------
# Edit builders.


def _replace(s: _Source, node: cst.CSTNode, text: str) -> Edit:
    return Edit(s.start(node), s.end(node), text)


def _insert(pos: Position, text: str) -> Edit:
    return Edit(pos, pos, text)


def _insert_before_statement(s: _Source, small: cst.BaseSmallStatement, text: str) -> Optional[Edit]:
    """``text`` as a statement of its own just before ``small`` (same indentation; ``; `` when ``small``
    shares its line with an earlier statement or sits in a one-line suite)."""
    container = s.parents.get(small)
    start = s.start(small)
    if isinstance(container, cst.SimpleStatementLine) and container.body[0] is small:
        indent = s.line(start.line)[: start.column]
        if indent.strip():
            return None
        return _insert(start, f"{text}{s.module.default_newline}{indent}")
    if isinstance(container, (cst.SimpleStatementLine, cst.SimpleStatementSuite)):
        return _insert(start, f"{text}; ")
    return None


def _remove_arg(s: _Source, call: cst.Call, arg: cst.Arg) -> Optional[List[Edit]]:
    """Edits deleting ``arg`` from ``call`` (its comma and layout handled), or turning a positional
    ``True`` followed by more positional arguments into ``False``."""
    args = list(call.args)
    index = next((i for i, a in enumerate(args) if a is arg), None)
    if index is None:
        return None
    later = args[index + 1:]
    if arg.keyword is None and any(a.keyword is None and not a.star for a in later):
        return [_replace(s, arg.value, "False")]  # later positional arguments keep their places
    text = s.text
    a0, a1 = s.offset(s.start(arg)), s.offset(s.end(arg))
    j = a1
    while j < len(text) and text[j] in " \t":
        j += 1
    own_comma_end = j + 1 if j < len(text) and text[j] == "," else None
    after = own_comma_end if own_comma_end is not None else a1
    # Alone on its line(s): delete the whole line(s).
    line_start = text.rfind("\n", 0, a0) + 1
    line_end = text.find("\n", after)
    if not text[line_start:a0].strip() and (line_end == -1 or not text[after:line_end].strip()):
        if line_end != -1 and line_start > s.offset(s.start(call)):
            return [Edit(s.position(line_start), s.position(line_end + 1), "")]
    if later:
        end = s.offset(s.start(later[0]))
        if "#" in text[a0:end]:
            end = own_comma_end if own_comma_end is not None else a1
        return [Edit(s.position(a0), s.position(end), "")]
    if index > 0:
        begin = s.offset(s.end(args[index - 1]))
        if "#" not in text[begin:a0]:
            return [Edit(s.position(begin), s.position(a1), "")]
    return [Edit(s.position(a0), s.position(after), "")]


def _arg_at(
    s: _Source, start: Optional[Position], end: Optional[Position]
) -> Optional[Tuple[cst.Call, cst.Arg]]:
    if start is None or end is None:
        return None
    node = s.find(start, end, cst.Arg)
    if node is None:
        inner = s.find(start, end, cst.BaseExpression)  # a positional ``True``: the range of its value
        node = s.parents.get(inner) if inner is not None else None
    if not isinstance(node, cst.Arg):
        return None
    call = s.parents.get(node)
    return (call, node) if isinstance(call, cst.Call) else None


def _input_arg(call: cst.Call) -> Optional[cst.Arg]:
    """The tensor argument a functional in-place op writes: the first positional one, or ``input=``."""
    if call.args and call.args[0].keyword is None and not call.args[0].star:
        return call.args[0]
    for a in call.args:
        if a.keyword is not None and a.keyword.value in ("input", "self"):
            return a
    return None


def _view_root(s: _Source, expr: cst.BaseExpression) -> Optional[cst.Name]:
    """``h`` for ``h[2:]``, ``h.t()``, ``h.T``, ``h.view(-1)[0]``: the local tensor a view chain starts at."""
    node = expr
    while True:
        if isinstance(node, cst.Subscript):
            node = node.value
        elif isinstance(node, cst.Attribute) and node.attr.value in WRITE_THROUGH_ATTRIBUTES:
            node = node.value
        elif (
            isinstance(node, cst.Call)
            and isinstance(node.func, cst.Attribute)
            and not node.func.attr.value.endswith("_")
            and _knowledge().method(node.func.attr.value) is not None
        ):
            node = node.func.value
        else:
            break
    if isinstance(node, cst.Name) and node is not expr:
        return node
    return None


def _is_object_attribute(expr: cst.BaseExpression) -> bool:
    """``self.h``, ``model.state``: an attribute of an object (not a view attribute like ``.T``)."""
    return (
        isinstance(expr, cst.Attribute)
        and expr.attr.value not in WRITE_THROUGH_ATTRIBUTES
        and isinstance(expr.value, (cst.Name, cst.Attribute))
        and (isinstance(expr.value, cst.Name) or _is_object_attribute(expr.value))
    )


# --------------------------------------------------------------------------------------------------
# Plans.


@dataclass
class _Plan:
    title: str
    safe: bool
    edits: List[Edit]


def _one_line(text: str) -> str:
    """Code on one line, for a title: comments, a multi-line call's magic trailing comma and line breaks
    dropped."""
    if "\n" in text:
        text = re.sub(r"#[^\n]*", "", text)
    text = re.sub(r",(\s*\n\s*)(?=[)\]}])", r"\1", text)
    text = " ".join(text.split())
    text = re.sub(r"([(\[{]) ", r"\1", text)
    return re.sub(r" ([)\]}])", r"\1", text)


def _write_title(code: str) -> str:
    code = _one_line(code)
    if len(code) > TITLE_WIDTH:
        code = code[: TITLE_WIDTH - 3] + "..."
    return f"Write '{code}'"


def _preview(s: _Source, node: cst.CSTNode, edits: Sequence[Edit]) -> str:
    """The text of ``node`` (a statement) after ``edits`` inside it."""
    begin, end = s.offset(s.start(node)), s.offset(s.end(node))
    text = s.text[begin:end]
    for edit in sorted(edits, key=lambda e: (e.start.line, e.start.column), reverse=True):
        a, b = s.offset(edit.start) - begin, s.offset(edit.end) - begin
        if 0 <= a <= b <= len(text):
            text = text[:a] + edit.replacement + text[b:]
    return text


def _local(site, s: "Optional[_Source]" = None, stmt: "Optional[_Stmt]" = None) -> bool:
    """Is the written tensor a local that nothing else sees (or whose other local names -- aliases such
    as ``c = h.contiguous()`` -- are never read after the write)?"""
    if not site.target_is_local_name:
        return False
    if not site.target_shared:
        return True
    if site.holders and s is not None and stmt is not None:
        return not any(_read_later(s, name, stmt) for name in site.holders)
    return False


def _viewed(site, root) -> bool:
    """Is the write through a view of the tensor ``root`` names, as the analysis saw it (not an element of a
    list, ``feats[1].clamp_()``, where cloning ``root`` is no fix)?"""
    return isinstance(root, cst.Name) and site.base_text == root.value


def _base_local(site, root) -> bool:
    """A write through a view of ``root`` (``h[2:].zero_()``): is ``root`` a local nobody else sees?"""
    return _viewed(site, root) and not site.base_shared


_BINARY = {
    cst.AddAssign: ("+", 13),
    cst.SubtractAssign: ("-", 13),
    cst.MultiplyAssign: ("*", 14),
    cst.MatrixMultiplyAssign: ("@", 14),
    cst.DivideAssign: ("/", 14),
    cst.FloorDivideAssign: ("//", 14),
    cst.ModuloAssign: ("%", 14),
    cst.PowerAssign: ("**", 16),
    cst.LeftShiftAssign: ("<<", 12),
    cst.RightShiftAssign: (">>", 12),
    cst.BitAndAssign: ("&", 11),
    cst.BitXorAssign: ("^", 10),
    cst.BitOrAssign: ("|", 9),
}
_PRECEDENCE = {
    cst.Power: 16,
    cst.Multiply: 14,
    cst.MatrixMultiply: 14,
    cst.Divide: 14,
    cst.FloorDivide: 14,
    cst.Modulo: 14,
    cst.Add: 13,
    cst.Subtract: 13,
    cst.LeftShift: 12,
    cst.RightShift: 12,
    cst.BitAnd: 11,
    cst.BitXor: 10,
    cst.BitOr: 9,
}
_ATOMS = (
    cst.Name, cst.Attribute, cst.Call, cst.Subscript, cst.Integer, cst.Float, cst.Imaginary, cst.SimpleString,
    cst.FormattedString, cst.List, cst.Dict, cst.Set, cst.ListComp, cst.SetComp, cst.DictComp, cst.Ellipsis,
)


def _operand(s: _Source, value: cst.BaseExpression, precedence: int) -> str:
    """``value`` as the right operand of a binary operator of ``precedence``, parenthesised if needed."""
    text = s.code(value)
    if getattr(value, "lpar", ()):
        return text
    if isinstance(value, _ATOMS):
        return text
    if isinstance(value, cst.BinaryOperation) and precedence < 16:
        if _PRECEDENCE.get(type(value.operator), 0) > precedence:
            return text
    if isinstance(value, cst.UnaryOperation) and precedence < 15 and not isinstance(value.operator, cst.Not):
        return text
    return f"({text})"


def _plan_augassign(s: _Source, f: Finding) -> Optional[_Plan]:
    site = f.site
    node = s.find(site.start, site.end, cst.AugAssign)
    if node is None:
        return None
    if isinstance(node.target, cst.Subscript):
        return _plan_subscript(s, f)
    if not isinstance(node.target, (cst.Name, cst.Attribute)) or type(node.operator) not in _BINARY:
        return None
    new = _written_out(s, node)
    safe = isinstance(node.target, cst.Name) and _local(site, s, _statement(s, node))
    return _Plan(_write_title(new), safe, [_replace(s, node, new)])


def _plan_element_augassign(s: _Source, f: Finding) -> Optional[_Plan]:
    """``laterals[i - 1] += up`` on a list's (or dict's) element: put the sum in the slot instead. Safe when
    only that list or dict, built here, holds the tensor."""
    node = s.find(f.site.start, f.site.end, cst.AugAssign)
    if node is None or not isinstance(node.target, cst.Subscript) or type(node.operator) not in _BINARY:
        return None
    new = _written_out(s, node)
    return _Plan(_write_title(new), not f.site.target_shared, [_replace(s, node, new)])


def _written_out(s: _Source, node: cst.AugAssign) -> str:
    """``b *= c + 1`` as ``b = b * (c + 1)`` (its operator one of ``_BINARY``)."""
    op, precedence = _BINARY[type(node.operator)]
    target = s.code(node.target)
    return f"{target} = {target} {op} {_operand(s, node.value, precedence)}"


def _out_of_place_call(
    s: _Source,
    call: cst.Call,
    receiver: cst.BaseExpression,
    name_node: cst.Name,
    twin: Optional[str],
    clone_arg: Optional[cst.Arg] = None,
) -> str:
    """The call written out of place: ``x.add(y)`` for ``x.add_(y)``; without a twin, the in-place call
    on a clone: ``x.clone().zero_()`` / ``torch.foo_(x.clone())``."""
    begin = s.offset(s.start(call))
    text = s.slice(s.start(call), s.end(call))
    if twin is not None:
        a, b = s.offset(s.start(name_node)) - begin, s.offset(s.end(name_node)) - begin
        return text[:a] + twin + text[b:]
    target = clone_arg.value if clone_arg is not None else receiver
    b = s.offset(s.end(target)) - begin
    return text[:b] + ".clone()" + text[b:]


def _plan_rebind(
    s: _Source,
    f: Finding,
    call: cst.Call,
    target: cst.BaseExpression,
    new_call: str,
    allow_object_attribute: bool = True,
) -> Optional[_Plan]:
    """Rewrite ``call`` (which writes ``target`` in place) as ``new_call``, out of place, rebinding the
    target name so that every later read sees the new tensor, as it saw the written one."""
    stmt = _statement(s, call)
    if stmt is None:
        return None
    site = f.site
    target_text = s.code(target)
    is_name = isinstance(target, cst.Name)
    if stmt.kind == "expr":
        if not is_name and not (allow_object_attribute and _is_object_attribute(target)):
            return None
        new = f"{target_text} = {new_call}"
        return _Plan(_write_title(new), is_name and _local(site, s, stmt), [_replace(s, call, new)])
    if not is_name:
        return None
    if stmt.kind == "assign":
        lhs = s.code(stmt.lhs)
        if lhs == target_text or not _read_later(s, target_text, stmt):
            edits = [_replace(s, call, new_call)]
        else:
            edits = [_replace(s, call, f"{target_text} = {new_call}")]
        return _Plan(_write_title(_preview(s, stmt.small, edits)), _local(site, s, stmt), edits)
    if stmt.kind == "return":
        if _read_later(s, target_text, stmt):
            return None
        edits = [_replace(s, call, new_call)]
        return _Plan(_write_title(_preview(s, stmt.small, edits)), _local(site, s, stmt), edits)
    # nested in a larger expression: out of place only if nothing reads the name again
    if _read_later(s, target_text, stmt) or _read_elsewhere_in(s, stmt, target_text, target):
        return None
    edits = [_replace(s, call, new_call)]
    return _Plan(_write_title(_preview(s, stmt.small, edits)), _local(site, s, stmt), edits)


def _plan_clone_first(
    s: _Source, f: Finding, node: cst.CSTNode, root: cst.Name, safe: bool
) -> Optional[_Plan]:
    """Insert ``root = root.clone()`` before the statement: the write then lands in a copy, and the tensor
    saved earlier keeps its values."""
    stmt = _statement(s, node) if not isinstance(node, cst.BaseSmallStatement) else _Stmt(node, "expr")
    if stmt is None:
        return None
    name = root.value
    line = f"{name} = {name}.clone()"
    if _saved_within(s, f, stmt.small):
        return None  # the statement itself saves the tensor before writing it: a clone before is too early
    first = _first_of_write_run(s, f, stmt.small, name)
    if _previous_statement_is(s, first, line):
        return None  # already cloned (the save must come from elsewhere): never insert a second copy
    edit = _insert_before_statement(s, first, line)
    if edit is None:
        return None
    return _Plan(f"Clone '{name}' before writing into it", safe, [edit])


def _first_of_write_run(
    s: _Source, f: Finding, small: cst.BaseSmallStatement, name: str
) -> cst.BaseSmallStatement:
    """The first of the consecutive statements ending at ``small`` that write into ``name[...]``: writes
    ``y[0] = 0; y[1] = 0`` after a save are each reported, and their fixes then insert the same clone at
    the same place (so one is applied), instead of one clone per write."""
    container = s.parents.get(small)
    if not isinstance(container, cst.SimpleStatementLine) or container.body[0] is not small:
        return small
    block = s.parents.get(container)
    if not isinstance(block, (cst.IndentedBlock, cst.Module)):
        return small
    lines = list(block.body)
    index = lines.index(container)
    first = small
    while index > 0:
        previous = lines[index - 1]
        if not isinstance(previous, cst.SimpleStatementLine) or len(previous.body) != 1:
            break
        candidate = previous.body[0]
        if not _writes_into(candidate, name) or _saved_within(s, f, candidate):
            break
        first, index = candidate, index - 1
    return first


def _writes_into(small: cst.CSTNode, name: str) -> bool:
    if isinstance(small, cst.Assign) and len(small.targets) == 1:
        target = small.targets[0].target
    elif isinstance(small, cst.AugAssign):
        target = small.target
    else:
        return False
    base = target.value if isinstance(target, cst.Subscript) else None
    return isinstance(base, cst.Name) and base.value == name


def _saved_within(s: _Source, f: Finding, small: cst.CSTNode) -> bool:
    line, column = f.evidence.saving_line, f.evidence.saving_column
    if line is None:
        return False
    a, b = s.start(small), s.end(small)
    return (a.line, a.column) <= (line, column or 0) < (b.line, b.column)


def _previous_statement_is(s: _Source, small: cst.BaseSmallStatement, code: str) -> bool:
    container = s.parents.get(small)
    if not isinstance(container, (cst.SimpleStatementLine, cst.SimpleStatementSuite)):
        return False
    body = list(container.body)
    index = body.index(small)
    if index > 0:
        previous = body[index - 1]
    else:
        block = s.parents.get(container)
        if not isinstance(block, (cst.IndentedBlock, cst.Module)):
            return False
        siblings = list(block.body)
        if container not in siblings or siblings.index(container) == 0:
            return False
        line_node = siblings[siblings.index(container) - 1]
        if not isinstance(line_node, cst.SimpleStatementLine):
            return False
        previous = line_node.body[-1]
    return " ".join(s.code(previous).split()).rstrip(";").strip() == code


def _plan_method(s: _Source, f: Finding) -> Optional[_Plan]:
    site = f.site
    call = s.find(site.start, site.end, cst.Call)
    if call is None or not isinstance(call.func, cst.Attribute):
        return None
    name = call.func.attr.value
    if not name.endswith("_") or name.startswith("_") or name in NOT_DATA_WRITES:
        return None
    receiver = call.func.value
    if isinstance(receiver, cst.Name) or _is_object_attribute(receiver):
        new_call = _out_of_place_call(s, call, receiver, call.func.attr, method_twin(name))
        return _plan_rebind(s, f, call, receiver, new_call)
    root = _view_root(s, receiver)
    stmt = _statement(s, call)
    if root is not None and stmt is not None and stmt.kind == "expr" and _viewed(site, root):
        return _plan_clone_first(s, f, call, root, safe=_base_local(site, root))
    return None


def _plan_function(s: _Source, f: Finding) -> Optional[_Plan]:
    site = f.site
    call = s.find(site.start, site.end, cst.Call)
    if call is None:
        return None
    func = call.func
    name_node = func.attr if isinstance(func, cst.Attribute) else func if isinstance(func, cst.Name) else None
    if name_node is None:
        return None
    arg = _input_arg(call)
    if arg is None or not isinstance(arg.value, (cst.Name, cst.Attribute)):
        return None
    twin = function_twin(name_node.value) if isinstance(func, cst.Attribute) else None
    new_call = _out_of_place_call(s, call, arg.value, name_node, twin, clone_arg=None if twin else arg)
    return _plan_rebind(s, f, call, arg.value, new_call)


def _plan_drop_kwarg(
    s: _Source, f: Finding, call: cst.Call, arg: cst.Arg, target: cst.BaseExpression, what: str
) -> Optional[_Plan]:
    """``F.relu(y, inplace=True)`` / ``torch.mul(a, b, out=x)``: drop the argument that makes the call
    write ``target``; rebind ``target`` when the statement relied on the write."""
    removal = _remove_arg(s, call, arg)
    if removal is None:
        return None
    stmt = _statement(s, call)
    if stmt is None:
        return None
    site = f.site
    target_text = s.code(target)
    is_name = isinstance(target, cst.Name)
    safe = is_name and _local(site, s, stmt)
    if stmt.kind == "expr":
        if not is_name and not _is_object_attribute(target):
            root = _view_root(s, target)
            if root is None or not _viewed(site, root):
                return None
            return _plan_clone_first(s, f, call, root, safe=_base_local(site, root))
        edits = [_insert(s.start(call), f"{target_text} = ")] + removal
        return _Plan(_write_title(_preview(s, stmt.small, edits)), safe, edits)
    if not is_name:
        return None
    if stmt.kind == "assign":
        if s.code(stmt.lhs) == target_text or not _read_later(s, target_text, stmt):
            return _Plan(f"Remove '{what}'", safe, removal)
        edits = [_insert(s.start(call), f"{target_text} = ")] + removal
        return _Plan(_write_title(_preview(s, stmt.small, edits)), safe, edits)
    if _read_later(s, target_text, stmt):
        return None
    if stmt.kind == "nested" and _read_elsewhere_in(s, stmt, target_text, target):
        return None
    return _Plan(f"Remove '{what}'", safe, removal)


def _plan_inplace_kwarg(s: _Source, f: Finding) -> Optional[_Plan]:
    site = f.site
    found = _arg_at(s, site.kwarg_start, site.kwarg_end)
    if found is None:
        return None
    call, arg = found
    target = _input_arg(call)
    if target is None:
        return None
    return _plan_drop_kwarg(s, f, call, arg, target.value, _arg_label(s, arg))


def _plan_out_kwarg(s: _Source, f: Finding) -> Optional[_Plan]:
    site = f.site
    found = _arg_at(s, site.kwarg_start, site.kwarg_end)
    if found is None:
        return None
    call, arg = found
    if arg.keyword is None or arg.keyword.value != "out":
        return None
    return _plan_drop_kwarg(s, f, call, arg, arg.value, _arg_label(s, arg))


def _arg_label(s: _Source, arg: cst.Arg) -> str:
    return _one_line(s.code(arg)).rstrip(",").strip()


def _ctor_inplace_removal(s: _Source, site) -> Optional[Tuple[cst.Call, Sequence[Edit], str]]:
    """The constructor holding ``inplace=True`` at the site's kwarg range, the edits removing it, a title."""
    found = _arg_at(s, site.kwarg_start, site.kwarg_end)
    if found is None:
        return None
    ctor, arg = found
    removal = _remove_arg(s, ctor, arg)
    if removal is None:
        return None
    return ctor, removal, _module_title(s, arg, removal)


def _plan_module_ctor(s: _Source, f: Finding) -> Optional[_Plan]:
    found = _ctor_inplace_removal(s, f.site)
    if found is None:
        return None
    call, removal, title = found
    # safe where only the container sees what it overwrites (the rule planning it may say otherwise)
    return _Plan(title, _sequential_internal(s, f, call), removal)


def _module_title(s: _Source, arg: cst.Arg, removal: Sequence[Edit]) -> str:
    if arg.keyword is None:
        if removal and removal[0].replacement == "False":
            return "Pass 'False' for 'inplace'"
        return f"Remove the 'inplace' argument '{s.code(arg.value)}'"
    return f"Remove '{_arg_label(s, arg)}'"


def _sequential_internal(s: _Source, f: Finding, ctor: cst.Call) -> bool:
    """Is the module built inline as an element of ``nn.Sequential(...)``, overwriting the output of an
    earlier element (the saving op)? Then the overwritten tensor exists only inside the container."""
    holder = s.parents.get(ctor)
    container = s.parents.get(holder) if isinstance(holder, cst.Arg) else None
    if not isinstance(container, cst.Call) or holder.keyword is not None:
        return False
    if not (_dotted(container.func) or "").split(".")[-1] == "Sequential":
        return False
    line, column = f.evidence.saving_line, f.evidence.saving_column
    if line is None:
        return False
    saved_at = (line, column or 0)
    first = s.start(container)
    mine = s.start(ctor)
    return (first.line, first.column) < saved_at < (mine.line, mine.column)


def _plan_module_call(s: _Source, f: Finding) -> Optional[_Plan]:
    site = f.site
    if site.kwarg_start is None:  # built out of place, switched in place later (``m.inplace = True``)
        return _plan_switched_module_call(s, f)
    found = _ctor_inplace_removal(s, site)
    if found is None:
        return None
    ctor, removal, what = found
    where = s.start(ctor).line
    ctor_text = _one_line(s.code(ctor))
    if len(ctor_text) > 40:
        ctor_text = _dotted(ctor.func) + "(...)"
    call = s.find(site.start, site.end, cst.Call)
    stmt = _statement(s, call) if call is not None else None
    safe = stmt is not None and _used_once(s, ctor, call) and _local(site, s, stmt)
    return _Plan(f"{what} from '{ctor_text}' on line {where}", safe, removal)


def _plan_switched_module_call(s: _Source, f: Finding) -> Optional[_Plan]:
    """``self.drop(h)`` of a module switched in place after it was built: hand it a copy, ``self.drop(
    h.clone())``; the module writes the copy and returns it, as it returned ``h`` written, and the tensor
    saved for backward keeps its values -- the out-of-place module the code was written for. Safe when
    nothing else can see the argument (an expression, or a name no other holder shares)."""
    call = s.find(f.site.start, f.site.end, cst.Call)
    if call is None:
        return None
    arg = next((a for a in call.args if not a.keyword and not a.star and s.code(a.value) == f.site.target_text),
               None)
    if arg is None or not isinstance(arg.value, (cst.Name, cst.Attribute, cst.Call, cst.Subscript)):
        return None
    if isinstance(s.parents.get(call), cst.Expr):
        return None  # ``self.act(h)`` as a statement: the code relies on the write to ``h`` itself
    new_call = _out_of_place_call(s, call, arg.value, None, None, clone_arg=arg)
    safe = not isinstance(arg.value, (cst.Name, cst.Attribute, cst.Subscript)) or not f.site.target_shared
    return _Plan(_write_title(new_call), safe, [_replace(s, call, new_call)])


def _used_once(s: _Source, ctor: cst.Call, call: cst.Call) -> bool:
    """``self.act = nn.ReLU(inplace=True)`` whose only use in its class is ``call``: building it out of
    place changes nothing else."""
    assign = next((a for a in s.ancestors(ctor) if isinstance(a, cst.Assign)), None)
    if assign is None:
        assign = _built_from_default(s, ctor)
    cls = next((a for a in s.ancestors(ctor) if isinstance(a, cst.ClassDef)), None)
    if assign is None or cls is None or len(assign.targets) != 1:
        return False
    target = assign.targets[0].target
    if not isinstance(target, cst.Attribute) or not isinstance(call.func, cst.Attribute):
        return False
    name = _dotted(target)
    if not name or _dotted(call.func) != name:
        return False
    uses = [n for n in walk(cls) if isinstance(n, cst.Attribute) and n is not target and _dotted(n) == name]
    if len(uses) == 1 and uses[0] is call.func:
        return True
    # every use rebinds its own argument (out = self.relu(out), as in ResNet blocks): the tensor it
    # overwrote is unreachable afterwards, so building the module out of place changes no value anyone sees
    return all(_rebinds_own_argument(s, use) for use in uses)


def _built_from_default(s: _Source, ctor: cst.Call) -> Optional[cst.Assign]:
    """``def __init__(self, act_layer=partial(nn.ReLU, inplace=True))`` whose body mentions the parameter
    once, in ``self.act = act_layer()``: that assignment, which holds the only module the default builds."""
    param = s.parents.get(ctor)
    if not isinstance(param, cst.Param) or param.default is not ctor:
        return None
    function = next((a for a in s.ancestors(param) if isinstance(a, cst.FunctionDef)), None)
    if function is None:
        return None
    name = param.name.value
    mentions = [n for n in walk(function.body) if isinstance(n, cst.Name) and n.value == name]
    call = s.parents.get(mentions[0]) if len(mentions) == 1 else None
    if not isinstance(call, cst.Call) or call.func is not mentions[0]:
        return None
    assign = s.parents.get(call)
    return assign if isinstance(assign, cst.Assign) else None


def _rebinds_own_argument(s: _Source, func: cst.Attribute) -> bool:
    call = s.parents.get(func)
    if not isinstance(call, cst.Call) or call.func is not func or len(call.args) != 1:
        return False
    argument = call.args[0].value
    assign = s.parents.get(call)
    return (isinstance(argument, cst.Name) and isinstance(assign, cst.Assign) and len(assign.targets) == 1
            and isinstance(assign.targets[0].target, cst.Name) and assign.targets[0].target.value == argument.value)


def _plan_subscript(s: _Source, f: Finding) -> Optional[_Plan]:
    site = f.site
    node = s.find(site.start, site.end, (cst.Assign, cst.AugAssign))
    if node is None:
        return None
    if isinstance(node, cst.Assign):
        if len(node.targets) != 1:
            return None
        target = node.targets[0].target
    else:
        target = node.target
    if not isinstance(target, cst.Subscript) or not isinstance(target.value, cst.Name):
        return None
    base = target.value
    # The site describes the base (``y`` for ``y[0] = 0``); when it describes the element written
    # (``y[0]``), its flags say nothing about ``y`` and the fix can only be unsafe.
    about_base = site.target_text in ("", base.value)
    return _plan_clone_first(s, f, node, base, safe=about_base and _local(site, s, _statement(s, node)))


def _has_multiline_string(s: _Source, node: cst.CSTNode) -> bool:
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, (cst.SimpleString, cst.FormattedString)) and n in s.positions:
            if s.start(n).line != s.end(n).line:
                return True
        stack.extend(_children(n))
    return False


def _plan_no_grad(s: _Source, f: Finding) -> Optional[_Plan]:
    """Run the statement under ``with torch.no_grad():`` (indented one level deeper); unsafe until the
    rule planning it says otherwise."""
    node = s.find(f.site.start, f.site.end, (cst.BaseSmallStatement, cst.Call))
    if node is None:
        return None
    small = node if isinstance(node, cst.BaseSmallStatement) else next(
        (a for a in s.ancestors(node) if isinstance(a, cst.BaseSmallStatement)), None
    )
    if small is None:
        return None
    line_node = s.parents.get(small)
    if not isinstance(line_node, cst.SimpleStatementLine) or len(line_node.body) != 1:
        return None
    if not isinstance(s.parents.get(line_node), (cst.IndentedBlock, cst.Module)):
        return None
    no_grad = s.torch_name()
    if no_grad is None or _has_multiline_string(s, small):
        return None
    start, end = s.start(small), s.end(small)
    indent = s.line(start.line)[: start.column]
    if indent.strip():
        return None
    unit = s.module.default_indent
    edits = [_insert(start, f"with {no_grad}():{s.module.default_newline}{indent}{unit}")]
    edits += [_insert(Position(line, 0), unit) for line in range(start.line + 1, end.line + 1)]
    return _Plan(f"Wrap in 'with {no_grad}():'", False, edits)


_OUT_OF_PLACE = {
    "augassign": _plan_augassign,
    "element_augassign": _plan_element_augassign,
    "method": _plan_method,
    "function": _plan_function,
    "inplace_kwarg": _plan_inplace_kwarg,
    "out_kwarg": _plan_out_kwarg,
    "module_ctor": _plan_module_ctor,
    "module_call": _plan_module_call,
    "subscript": _plan_subscript,
}


# -- what the rules plan their fixes from (inplace_lint.rules.<unit>.report) ---------------------------
Plan = _Plan
Statement = _Stmt
plan_no_grad = _plan_no_grad
statement = _statement
read_later = _read_later
out_of_place_call = _out_of_place_call
replace = _replace
write_title = _write_title


def plan_out_of_place(s: _Source, f: Finding) -> Optional[_Plan]:
    """The write of ``f`` rewritten out of place, by its form (the module docstring's table); None when
    its form has no such rewrite or this one cannot be made."""
    handler = _OUT_OF_PLACE.get(f.site.form)
    return handler(s, f) if handler is not None else None


def plan_fix(finding: Finding, source: str, planner, parsed=None) -> Optional[Fix]:
    """The fix for ``finding`` in ``source``, or None: what ``planner(parse, finding)`` (its rule's plan)
    makes of it. ``parsed()``: the parse of ``source`` to reuse (None: parse it)."""
    site = finding.site
    if site is None:
        return None
    s = parsed() if parsed is not None else _parse(source)
    lines = {site.start.line, site.end.line}
    if site.kwarg_start is not None:
        lines.add(site.kwarg_start.line)
    if finding.evidence.saving_line is not None:
        lines.add(finding.evidence.saving_line)
    s.ensure(lines)
    plan = planner(s, finding)
    if plan is None or not plan.edits:
        return None
    return Fix(plan.title, "safe" if plan.safe else "unsafe", tuple(plan.edits))


def forward_hook_fix(s: _Source, finding: Finding, hook: str) -> Optional[Fix]:
    """For a forward hook (module-level, or returned by a factory) that writes its output in place: write a
    copy and return it. A forward hook's return value replaces the module's output, so the caller sees the
    same values, and the tensor the module saved for backward stays as it was. Only for a hook with no
    ``return`` of its own (one that returns, or yields, would need its returns rewritten too), whose output
    is a plain parameter. ``s``: the parse of the text."""
    hooks = [st for st in s.module.body if isinstance(st, cst.FunctionDef) and st.name.value == hook]
    if not hooks:
        # a hook a factory returns (``def _make_hook(self, name): def hook(...): ...; return hook``): the
        # function of that name the write is in
        line = finding.site.start.line
        hooks = [node for node in walk(s.module) if type(node) is cst.FunctionDef and node.name.value == hook
                 and s.start(node).line <= line <= s.end(node).line]
    if len(hooks) != 1 or not isinstance(hooks[0].body, cst.IndentedBlock):
        return None
    function = hooks[0]
    params = function.params
    positional = list(params.posonly_params) + list(params.params)
    if len(positional) < 3 or positional[2].name.value != finding.site.target_text:
        return None
    output = positional[2].name.value
    if any(isinstance(node, (cst.Return, cst.Yield, cst.Global, cst.Nonlocal))
           for node in walk(function.body, skip_nested_functions=True)):
        return None
    statements = list(function.body.body)
    first = statements[0]
    if is_docstring(first):
        if len(statements) == 1:
            return None
        first = statements[1]
    s.ensure({s.start(first).line, s.end(function).line})
    indent = s.line(s.start(first).line)[: s.start(first).column]
    if indent.strip():
        return None
    newline = s.module.default_newline
    last_line = s.end(function).line
    if last_line < len(s.line_starts):
        end = _insert(Position(last_line + 1, 0), f"{indent}return {output}{newline}")
    else:  # the hook ends the file
        end = _insert(Position(last_line, len(s.line(last_line))), f"{newline}{indent}return {output}")
    edits = (_insert(s.start(first), f"{output} = {output}.clone(){newline}{indent}"), end)
    title = (f"Write a copy in '{hook}' and return it: '{output} = {output}.clone()' first, "
             f"'return {output}' last")
    return Fix(title, "safe", edits)


def saved_copy_fix(s: _Source, places: Sequence[Tuple[Position, Position, bool]]) -> Optional[Fix]:
    """Hand the saving ops a copy of each operand ``(start, end, atom)`` (``w`` -> ``w.clone()``; an operand
    that is not an ``atom`` is parenthesised first): each op saves its copy, which no later write touches.
    ``s``: the parse of the text."""
    edits: List[Edit] = []
    copies = []
    for start, end, atom in places:
        text = s.slice(start, end)
        if not text:
            return None
        edits.extend([Edit(end, end, ".clone()")] if atom else
                     [Edit(start, start, "("), Edit(end, end, ").clone()")])
        copy = f"{text}.clone()" if atom else f"({text}).clone()"
        copies.append(f"'{_one_line(copy)}' on line {start.line}")
    if not edits:
        return None
    return Fix(f"Save a copy: {', '.join(copies)}", "safe", tuple(edits))


def call_after_backward_fix(s: _Source, start: Position, end: Position) -> Optional[Fix]:
    """Move the call statement at ``start``-``end`` (``critic.clip_weights(0.01)``, a method that writes
    its module's own tensors in place) to just after the next ``<loss>.backward()`` statement of the same
    block. The forward values were computed before the call and stay the same; backward now reads the
    tensors it saved, and the write still happens, after it. Only when the call and the backward are
    one-line statements of their own, the call's receiver is a plain name, and no statement between them
    mentions that name (another forward would see the module's tensors unwritten) or holds a block.
    ``s``: the parse of the text."""
    s.ensure({start.line})
    call = s.find(start, end, cst.Call)
    stmt = _statement(s, call) if call is not None else None
    if stmt is None or stmt.kind != "expr" or not isinstance(call.func, cst.Attribute) \
            or not isinstance(call.func.value, cst.Name):
        return None
    line = s.parents.get(stmt.small)
    block = s.parents.get(line)
    if not isinstance(line, cst.SimpleStatementLine) or len(line.body) != 1 \
            or not isinstance(block, cst.IndentedBlock):
        return None
    receiver = re.compile(r"(?<![\w.])" + re.escape(call.func.value.value) + r"(?!\w)")
    statements = list(block.body)
    for later in statements[statements.index(line) + 1:]:
        if not isinstance(later, cst.SimpleStatementLine):
            return None
        if s.start(later).line != s.end(later).line:
            return None
        text = s.line(s.start(later).line)
        value = later.body[0].value if len(later.body) == 1 and isinstance(later.body[0], cst.Expr) else None
        if isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute) \
                and value.func.attr.value == "backward":
            break
        if receiver.search(text) or any(isinstance(small, (cst.Return, cst.Raise)) for small in later.body):
            return None
    else:
        return None
    call_line, backward_line = s.start(line).line, s.start(later).line
    if s.end(line).line != call_line or backward_line >= len(s.line_starts):
        return None
    newline = s.module.default_newline
    moved = s.line(call_line) + newline
    edits = (Edit(Position(call_line, 0), Position(call_line + 1, 0), ""),
             _insert(Position(backward_line + 1, 0), moved))
    title = f"Call '{s.code(call)}' after '{s.code(value)}'"
    return Fix(title, "safe", edits)


def attach(finding: Finding, source: str, planner, parsed=None) -> Finding:
    """``finding`` with the fix ``planner(parse, finding)`` plans (see :func:`plan_fix`), and the fix title
    appended to its message; unchanged if no fix applies.

    Never raises (an internal error leaves the finding without a fix) unless ``INPLACE_LINT_DEBUG=1``.
    """
    if finding.fix is not None or finding.site is None:
        return finding
    try:
        fix = plan_fix(finding, source, planner, parsed)
    except Exception:
        if debug.DEBUG:
            raise
        return finding
    if fix is None:
        return finding
    message = finding.message.rstrip()
    if not message.endswith((".", "!", "?")):
        message += "."
    return finding.replace(fix=fix, message=f"{message} {fix.title}.")
