"""Import resolution: which local names mean torch (``import torch.nn.functional as F``)."""

from __future__ import annotations

from typing import Dict, Optional

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
