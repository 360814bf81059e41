"""Import resolution: which local names mean torch (``import torch.nn.functional as F``)."""

from __future__ import annotations

import dataclasses
from typing import Dict, Iterator, List, Optional

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from inplace_lint.syntax.triggers import AUGMENTED_ASSIGNMENTS


def dotted(node: cst.BaseExpression) -> Optional[str]:
    """``torch.nn.functional`` for an Attribute chain of Names, else None."""
    parts = []
    while type(node) is cst.Attribute:  # exact types: LibCST's node classes are final, ABC checks slow
        parts.append(node.attr.value)
        node = node.value
    if type(node) is not cst.Name:
        return None
    parts.append(node.value)
    return ".".join(reversed(parts))


def _module_name(node) -> str:
    return dotted(node) or ""


class ImportMap:
    """Local name -> fully qualified name, for names bound by import statements."""

    def __init__(self, parent: Optional["ImportMap"] = None):
        self.names: Dict[str, str] = dict(parent.names) if parent else {}

    def add(self, statement) -> None:
        if type(statement) is cst.Import:
            for alias in statement.names:
                full = _module_name(alias.name)
                if alias.asname is not None and type(alias.asname.name) is cst.Name:
                    self.names[alias.asname.name.value] = full
                else:
                    top = full.split(".")[0]
                    self.names[top] = top
        elif type(statement) is cst.ImportFrom:
            if statement.relative or statement.module is None:
                base = ""
            else:
                base = _module_name(statement.module)
            if type(statement.names) is cst.ImportStar:
                if base in ("torch", "torch.nn", "torch.nn.functional"):
                    self.names["*" + base] = base
                return
            for alias in statement.names:
                name = _module_name(alias.name)
                local = name
                if alias.asname is not None and type(alias.asname.name) is cst.Name:
                    local = alias.asname.name.value
                self.names[local] = f"{base}.{name}" if base else name

    def resolve(self, node: cst.BaseExpression) -> Optional[str]:
        """Fully qualified name of a Name/Attribute chain rooted in an imported name, else None."""
        path = dotted(node)
        if path is None:
            return None
        head, _, rest = path.partition(".")
        full = self.names.get(head)
        if full is None:
            return None
        return f"{full}.{rest}" if rest else full

    def mentions_torch(self) -> bool:
        return any(v == "torch" or v.startswith("torch.") for v in self.names.values())


# Per node type: the fields that may hold child nodes. Formatting-only fields are left out: nothing the
# analysis looks for lives under them.
_FIELDS: Dict[type, tuple] = {}
_TRIVIA = frozenset({
    "lpar", "rpar", "lbracket", "rbracket", "lbrace", "rbrace", "comma", "semicolon", "header", "footer",
    "leading_lines", "trailing_whitespace", "lines_after_decorators", "newline", "colon", "equal", "dot",
    "star_tok", "operator", "first_line", "empty_lines", "indent", "asynchronous", "prefix", "quote",
})
# type -> is it a CSTNode. LibCST's node classes are ABCs, and an ABC's isinstance check costs several
# times a plain one; the walks below ask it millions of times on real code.
_IS_NODE: Dict[type, bool] = {}
_FUNCTION_TYPES = (cst.FunctionDef, cst.Lambda)


def _is_node(kind: type) -> bool:
    known = _IS_NODE.get(kind)
    if known is None:
        known = _IS_NODE[kind] = issubclass(kind, cst.CSTNode)
    return known


def child_nodes(node: cst.CSTNode, fields: tuple) -> List[cst.CSTNode]:
    """The nodes held in ``fields`` of ``node``, in order (told by exact type, remembered: an isinstance
    check against LibCST's ABCs costs several plain ones). :func:`walk` has this loop inlined."""
    out: List[cst.CSTNode] = []
    is_node = _IS_NODE
    for name in fields:
        value = getattr(node, name)
        value_kind = type(value)
        if value_kind is list or value_kind is tuple:
            for item in value:
                item_kind = type(item)
                if is_node.get(item_kind) or (item_kind not in is_node and _is_node(item_kind)):
                    out.append(item)
        elif is_node.get(value_kind) or (value_kind not in is_node and _is_node(value_kind)):
            out.append(value)
    return out


def walk(root: cst.CSTNode, skip_nested_functions: bool = False) -> Iterator[cst.CSTNode]:
    """Every node under ``root`` (pre-order). Much cheaper than a LibCST visitor, which rebuilds
    the tree as it goes; used for the syntactic pre-passes."""
    stack = [root]
    fields_of = _FIELDS
    is_node = _IS_NODE
    while stack:
        node = stack.pop()
        yield node
        kind = type(node)
        if skip_nested_functions and node is not root and kind in _FUNCTION_TYPES:
            continue
        fields = fields_of.get(kind)
        if fields is None:
            fields = fields_of[kind] = tuple(
                f.name for f in dataclasses.fields(node)
                if f.name not in _TRIVIA and not f.name.startswith("whitespace")
            )
        children = []
        for name in fields:
            value = getattr(node, name)
            value_kind = type(value)
            if value_kind is list or value_kind is tuple:
                for item in value:
                    item_kind = type(item)
                    if is_node.get(item_kind) or (item_kind not in is_node and _is_node(item_kind)):
                        children.append(item)
            elif is_node.get(value_kind) or (value_kind not in is_node and _is_node(value_kind)):
                children.append(value)
        children.reverse()
        stack.extend(children)


def is_docstring(statement: cst.CSTNode) -> bool:
    """A statement that is only a string literal (a docstring, wherever it stands)."""
    return (type(statement) is cst.SimpleStatementLine and len(statement.body) == 1
            and type(statement.body[0]) is cst.Expr
            and type(statement.body[0].value) in (cst.SimpleString, cst.ConcatenatedString))


# The in-place operator of each augmented assignment (declared in inplace_lint.syntax.triggers)
AUG_SYMBOLS = {getattr(cst, operator): symbol for symbol, (_ast_operator, operator) in AUGMENTED_ASSIGNMENTS.items()}


def code_positions(module: cst.Module, wrapper: Optional[MetadataWrapper] = None):
    """LibCST's PositionProvider for ``module``. ``MetadataWrapper.resolve`` would also walk the whole tree
    once more for the batchable providers it resolves alongside, even when there are none (40 % of it)."""
    wrapper = wrapper or MetadataWrapper(module, unsafe_skip_copy=True)
    try:
        return PositionProvider()._gen(wrapper)
    except Exception:  # pragma: no cover - a LibCST without the private hook: the public way
        return wrapper.resolve(PositionProvider)
