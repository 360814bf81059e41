"""The parameter types a function's docstring declares, for code that has no annotations.

Editors and type checkers read them (PyCharm, Sphinx's napoleon): ``sigma: float`` under ``Arguments``,
``sigma (float): ...`` under Google's ``Args:``, numpydoc's ``sigma : float``, Sphinx's ``:type sigma: float``
and ``:param float sigma:``. Only the text is read; nothing is imported or run.
"""

from __future__ import annotations

import re
from typing import Dict, Optional

import libcst as cst

# ``name: type``, ``name : type`` and ``name (type): ...`` at the start of a line
_NAMED = re.compile(r"^\s*\**([A-Za-z_]\w*)\s*(?:\(([^()]*)\)\s*:|:\s*([^:\n]+?)\s*$)", re.MULTILINE)
_SPHINX_TYPE = re.compile(r":type\s+([A-Za-z_]\w*)\s*:\s*([^\n]+)")
_SPHINX_PARAM = re.compile(r":param\s+([^:\n]+?)\s+([A-Za-z_]\w*)\s*:")
# Python values that are no tensor, as docstrings spell them (``int``, ``list of int``, ``float, optional``)
_NON_TENSOR = re.compile(
    r"^(?:int|float|bool|str|string|integer|number|scalar|complex|bytes|list|dict|tuple|set|sequence|"
    r"iterable|callable|none|numpy\.ndarray|np\.ndarray|ndarray)\b", re.IGNORECASE)
_ALTERNATIVES = re.compile(r"\s*(?:\bor\b|\||,)\s*")


def docstring_of(function: cst.FunctionDef) -> Optional[str]:
    """The text of ``function``'s docstring, or None."""
    body = function.body
    if type(body) is not cst.IndentedBlock or not body.body:
        return None
    first = body.body[0]
    if type(first) is not cst.SimpleStatementLine or not first.body or type(first.body[0]) is not cst.Expr:
        return None
    value = first.body[0].value
    if type(value) is not cst.SimpleString:
        return None
    text = value.value
    return text.lstrip("rRbBuU")[3:-3] if text.lstrip("rRbBuU")[:3] in ('"""', "'''") else None


def declared_non_tensors(function: cst.FunctionDef, params) -> frozenset:
    """The names among ``params`` the docstring declares to be a Python value that is no tensor (every
    alternative it lists is one: not ``float or Tensor``)."""
    text = docstring_of(function)
    if not text or not params:
        return frozenset()
    declared: Dict[str, str] = {}
    for match in _NAMED.finditer(text):
        name, google, plain = match.groups()
        if name in params and name not in declared:
            declared[name] = google if google is not None else plain
    for match in _SPHINX_TYPE.finditer(text):
        declared.setdefault(match.group(1), match.group(2)) if match.group(1) in params else None
    for match in _SPHINX_PARAM.finditer(text):
        declared.setdefault(match.group(2), match.group(1)) if match.group(2) in params else None
    return frozenset(name for name, kind in declared.items() if _no_tensor(kind))


def _no_tensor(kind: str) -> bool:
    words = [w for w in _ALTERNATIVES.split(kind.strip().strip("`~.")) if w and w.lower() != "optional"]
    return bool(words) and all(_NON_TENSOR.match(w.strip("`~")) and "tensor" not in w.lower() for w in words)
