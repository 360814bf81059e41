"""The explanation printed before torch's traceback (no torch: it formats what the tracer recorded).

The first line is in the linter's own format (``path:line:col: CODE message``), so editors and terminals
that jump to lint findings jump to the culprit.
"""

from __future__ import annotations

import ast
import re
from typing import Dict, Iterable, List, Optional, Sequence, Tuple

from inplace_lint.explainer.records import ImmediateError, Site, StaleSave

# The four errors the rules predict (torch 2.13 wording), as eval/forum_eval.py recognises them.
_KINDS = (
    ("AGI001", re.compile(r"has been modified by an inplace operation")),
    ("AGI002", re.compile(r"a leaf Variable that requires grad")),
    ("AGI003", re.compile(r"returns multiple views")),
    ("AGI004", re.compile(r"created in (?:no_grad|inference) mode and (?:is being|its base or another view "
                          r"of its base has been) modified inplace")),
)

_WHY = {
    "AGI002": "an in-place op on a leaf tensor that requires grad (or a view of one)",
    "AGI003": "an in-place op on an output of a function that returns several views (split, chunk, unbind)",
    "AGI004": "an in-place op, with grad mode on, on a view created in no_grad or inference mode",
}
_WHY_BASE = {
    "AGI003": "a function returning several views (split, chunk, unbind) made; torch forbids using it after",
    "AGI004": "was created in no_grad or inference mode; torch forbids using it after",
    "AGI002": "is of a leaf that requires grad",
}
_ADVICE = {
    "AGI001": "write it out of place (a new tensor) or clone the tensor before the op that saves it",
    "AGI002": "write it out of place, or under torch.no_grad() if it is an update, not part of the model",
    "AGI003": "write it out of place, or clone the output before writing it",
    "AGI004": "create the view with grad mode on, or clone it before writing",
}


def classify(message: str) -> Optional[str]:
    """The rule code of one of torch's in-place errors, or None."""
    for code, pattern in _KINDS:
        if pattern.search(message):
            return code
    return None


def error_kind(error: BaseException) -> Optional[str]:
    """The rule code of ``error`` or of an exception it was raised from (``raise X from error``)."""
    seen = 0
    while error is not None and seen < 10:
        if isinstance(error, RuntimeError):
            kind = classify(str(error))
            if kind:
                return kind
        error = error.__cause__ or error.__context__
        seen += 1
    return None


def _doc_url(code: str) -> str:
    from inplace_lint.rules import DOCS_URL

    return DOCS_URL.format(code=code)


def _where(site: Optional[Site], column: bool = True) -> str:
    if site is None:
        return "<unknown location>"
    return f"{site.path}:{site.line}:{site.column + 1}" if column else f"{site.path}:{site.line}"


def _shape(shape: Sequence[int], dtype: str) -> str:
    return f"{dtype}[{', '.join(str(n) for n in shape)}]"


def _show_op(op: Optional[str]) -> str:
    if not op:
        return "an op"
    symbols = {"__iadd__": "+=", "__isub__": "-=", "__imul__": "*=", "__itruediv__": "/=", "__ipow__": "**=",
               "__ifloordiv__": "//=", "__imod__": "%=", "__iand__": "&=", "__ior__": "|=", "__ixor__": "^=",
               "__setitem__": "[...] =", "__imatmul__": "@="}
    return symbols.get(op, op)


class StaticCheck:
    """Runs the linter (its Python API) once per file, to say whether it reports a culprit line."""

    def __init__(self, enabled: bool = True):
        self.enabled = enabled
        self._cache: Dict[str, Optional[list]] = {}

    def findings(self, path: str) -> Optional[list]:
        if path not in self._cache:
            try:
                from inplace_lint.engine.core import lint_source
                from inplace_lint.syntax.noqa import filter_suppressed

                with open(path, encoding="utf-8") as handle:
                    source = handle.read()
                self._cache[path] = filter_suppressed(lint_source(source, path, None), source)
            except Exception:  # not a readable Python file (a notebook cell, <string>): no verdict
                self._cache[path] = None
        return self._cache[path]

    def verdict(self, sites: Iterable[Site]) -> Tuple[str, Optional[object]]:
        """``("found by AGI001", finding)``, ``("missed by the static check", None)`` or no verdict."""
        if not self.enabled:
            return "", None
        judged = False
        for site in sites:
            findings = self.findings(site.path)
            if findings is None:
                continue
            judged = True
            lines = _statement_lines(site.path, site.line)
            for finding in findings:
                if finding.line in lines:
                    return f"found by {finding.code}", finding
        return ("missed by the static check", None) if judged else ("", None)


def _written_name(site: Site) -> Tuple[Optional[str], Optional[str]]:
    """``(the tensor written, as the source spells it, the name it is a view of)`` for the write at
    ``site``: ``h[2:].zero_()`` -> ``("h[2:]", "h")``, ``x += 1`` -> ``("x", "x")``; ``(None, None)``."""
    import linecache

    source = "".join(linecache.getlines(site.path))
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return None, None
    column = site.column
    target = None
    for node in ast.walk(tree):
        if getattr(node, "lineno", None) != site.line:
            continue
        if isinstance(node, ast.AugAssign):
            target = node.target
        elif isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Subscript):
            target = node.targets[0].value
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.col_offset == column and node.func.attr.endswith("_")):
            target = node.func.value
        if target is not None:
            break
    if target is None:
        return None, None
    text = ast.get_source_segment(source, target)
    root = target
    while isinstance(root, (ast.Subscript, ast.Attribute, ast.Call)):
        if isinstance(root, ast.Call):
            root = root.func
        root = root.value
    base = ast.get_source_segment(source, root) if isinstance(root, ast.Name) else None
    return text, base


def _statement_lines(path: str, line: int) -> range:
    """The lines of the statement around ``line`` (a call spanning lines is reported on any of them)."""
    import linecache

    try:
        tree = ast.parse("".join(linecache.getlines(path)))
    except (SyntaxError, ValueError):
        return range(line, line + 1)
    best = None
    for node in ast.walk(tree):
        if isinstance(node, ast.stmt) and node.lineno <= line <= (node.end_lineno or node.lineno):
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.If, ast.For,
                                     ast.While, ast.With, ast.Try, ast.AsyncFor, ast.AsyncWith)):
                if best is None or node.lineno >= best.lineno:
                    best = node
    if best is None:
        return range(line, line + 1)
    return range(best.lineno, (best.end_lineno or best.lineno) + 1)


def _sites_of(write_site: Optional[Site]) -> List[Site]:
    """The lines a write is blamed on, the primary first: the build line of a module a container ran
    (or of the module the user's line called), then the call."""
    if write_site is None:
        return []
    sites = [write_site.blamed]
    if write_site.module_built is not None and write_site.module_built not in sites:
        sites.append(write_site.module_built)
    if write_site not in sites:
        sites.append(write_site)
    return sites


def culprit_sites(stale: Optional[StaleSave] = None,
                  immediate: Optional[ImmediateError] = None) -> List[Site]:
    """The lines an explanation blames, the primary first."""
    if stale is not None:
        return _sites_of(stale.culprit.site if stale.culprit else None)
    if immediate is not None:
        if immediate.write is not None and immediate.write.site is not None:
            return _sites_of(immediate.write.site) + [immediate.site]
        return _sites_of(immediate.site)
    return []


def _module_line(site: Site, primary: Optional[Site]) -> Optional[str]:
    """Which torch module made the write, and the line that built it."""
    if not site.module:
        return None
    if site.module_built is None:
        return f"  the write happens inside {site.module}, called at {_where(site, False)}"
    text = f"  the write is {site.module}'s, the module built at {_where(site.module_built, False)}"
    return text + (f", run at {_where(site, False)}" if site is not primary else "")


def format_stale(stale: StaleSave, check: StaticCheck) -> str:
    write = stale.culprit
    saver = _show_op(stale.op)
    lines = []
    sites: List[Site] = []
    if write is None or write.site is None:
        lines.append(f"{_where(stale.site)}: AGI001 a tensor {saver} saved here for backward was modified in "
                     "place later, by a write the tracer did not see (outside torch's Python API)")
    else:
        sites = _sites_of(write.site)
        primary = sites[0]
        lines.append(
            f"{_where(primary)}: AGI001 {_show_op(write.op)} modified in place a tensor that {saver} on "
            f"line {stale.site.blamed.line if stale.site else '?'} saved for backward (as its {stale.role})"
        )
        lines.append(f"    {primary.source_line.strip()}")
        module = _module_line(write.site, primary)
        if module:
            lines.append(module)
    saved_at = _where(stale.site, column=False)
    if stale.site is not None and stale.site.module:
        built = stale.site.module_built
        saved_at += f", in {stale.site.module}" + (f" built at {_where(built, False)}" if built else "")
    versions = f"saved at version {stale.saved_version}, version {stale.version} at backward"
    if write is not None:
        versions += f"; this write took it from {write.before} to {write.after}"
    lines.append(f"  saved by {saver} at {saved_at} (its {stale.role}): "
                 f"{_shape(stale.shape, stale.dtype)}, {versions}")
    if stale.site is not None and stale.site.source_line:
        lines.append(f"    {stale.site.source_line.strip()}")
    if write is not None and (write.is_view or stale.is_view):
        name, base = _written_name(write.site) if write.site else (None, None)
        if name and base and name != base:
            through = f"'{name}', a view of '{base}'"
        elif name:
            through = f"'{name}'" + (" (a view)" if write.is_view else "")
        else:
            through = "a view" if write.is_view else "the tensor itself"
        saved = "a view of that storage" if stale.is_view else "the tensor itself"
        lines.append(f"  the write went through {through} ({_shape(write.shape, write.dtype)}); the saved "
                     f"tensor is {saved}: one storage, one version counter")
    lines.extend(_fix_and_verdict("AGI001", sites, write.op if write else None, check))
    return "\n".join(lines)


def format_immediate(code: str, immediate: Optional[ImmediateError], fallback: Optional[Site],
                     check: StaticCheck) -> str:
    site = immediate.site if immediate else fallback
    write = immediate.write if immediate else None
    if write is not None and write.site is not None:  # the view was used after this write to its base
        sites = _sites_of(write.site)
        primary = sites[0]
        lines = [
            f"{_where(primary)}: {code} {_show_op(write.op)} wrote the base of a view that {_WHY_BASE[code]}",
            f"    {primary.source_line.strip()}",
            f"  torch raised where the view is used, by {_show_op(immediate.op)} at {_where(site, False)}",
            f"    {site.source_line.strip()}",
        ]
        lines.extend(_fix_and_verdict(code, sites, write.op, check))
        return "\n".join(lines)
    sites = _sites_of(site)
    op = immediate.op if immediate else None
    primary = sites[0] if sites else None
    lines = [f"{_where(primary)}: {code} {_show_op(op)}: {_WHY[code]}"]
    if primary is not None:
        lines.append(f"    {primary.source_line.strip()}")
        module = _module_line(site, primary)
        if module:
            lines.append(module)
    lines.extend(_fix_and_verdict(code, sites, op, check))
    return "\n".join(lines)


REPORT_MISSES = "https://github.com/inplace-lint/inplace-lint/issues"


def _fix_and_verdict(code: str, sites: List[Site], op: Optional[str], check: StaticCheck) -> List[str]:
    verdict, finding = check.verdict(sites)
    fix = getattr(finding, "fix", None)
    if fix is not None:
        advice = fix.title
    elif op and op.startswith("Tensor.") and op.endswith("_") and not op.endswith("__"):
        advice = f"use {op[:-1]}() (out of place) and rebind the name; or {_ADVICE[code]}"
    else:
        advice = _ADVICE[code]
    out = [f"  fix: {advice}", f"  docs: {_doc_url(finding.code if finding else code)}"]
    if verdict:
        out.append(f"  static check: {verdict}"
                   + ("" if finding else f" (please report it: {REPORT_MISSES})"))
    return out


HEADER = "inplace-lint explain: the in-place operation behind this error"
