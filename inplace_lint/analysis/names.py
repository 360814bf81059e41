"""Import resolution: which local names mean torch (``import torch.nn.functional as F``)."""

from __future__ import annotations

import dataclasses
from typing import Dict, Iterator, Optional

import libcst as cst


def dotted(node: cst.BaseExpression) -> Optional[str]:
    """``torch.nn.functional`` for an Attribute chain of Names, else None."""
    parts = []
    while isinstance(node, cst.Attribute):
        parts.append(node.attr.value)
        node = node.value
    if not isinstance(node, cst.Name):
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
        if isinstance(statement, cst.Import):
            for alias in statement.names:
                full = _module_name(alias.name)
                if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                    self.names[alias.asname.name.value] = full
                else:
                    top = full.split(".")[0]
                    self.names[top] = top
        elif isinstance(statement, cst.ImportFrom):
            if statement.relative or statement.module is None:
                base = ""
            else:
                base = _module_name(statement.module)
            if isinstance(statement.names, cst.ImportStar):
                if base in ("torch", "torch.nn", "torch.nn.functional"):
                    self.names["*" + base] = base
                return
            for alias in statement.names:
                name = _module_name(alias.name)
                local = name
                if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
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


_FIELDS: Dict[type, tuple] = {}
# Formatting-only fields: nothing the analysis looks for lives under them.
_TRIVIA = frozenset({
    "lpar", "rpar", "lbracket", "rbracket", "lbrace", "rbrace", "comma", "semicolon", "header", "footer",
    "leading_lines", "trailing_whitespace", "lines_after_decorators", "newline", "colon", "equal", "dot",
    "star_tok", "operator", "first_line", "empty_lines", "indent", "asynchronous", "prefix", "quote",
})


def walk(root: cst.CSTNode, skip_nested_functions: bool = False) -> Iterator[cst.CSTNode]:
    """Every node under ``root`` (pre-order). Much cheaper than a LibCST visitor, which rebuilds
    the tree as it goes; used for the syntactic pre-passes."""
    stack = [root]
    while stack:
        node = stack.pop()
        yield node
        if skip_nested_functions and node is not root and isinstance(node, (cst.FunctionDef, cst.Lambda)):
            continue
        children = []
        fields = _FIELDS.get(type(node))
        if fields is None:
            fields = _FIELDS[type(node)] = tuple(
                f.name for f in dataclasses.fields(node)
                if f.name not in _TRIVIA and not f.name.startswith("whitespace")
            )
        for value in (getattr(node, name) for name in fields):
            if isinstance(value, cst.CSTNode):
                children.append(value)
            elif isinstance(value, (list, tuple)):
                children.extend(v for v in value if isinstance(v, cst.CSTNode))
        stack.extend(reversed(children))
