"""The program a linted file belongs to: where its imports lead, and its findings that cross files.

A file on disk is linted with the definitions it imports from the rest of its program appended
(inplace_lint.project.linking). Its findings then fall in three kinds:

- in its own lines: its own findings, as before (a save or an in-place module in another file is named
  with that file's path, and the fix never edits the other file);
- in a copied line, saved by one of its own ops: the in-place write another file's code makes on a
  tensor this file saved (``return self.act(y)`` after ``y = torch.sigmoid(...)``, the ReLU built with
  ``inplace=True`` in ``layers.py``). Reported here, at this file's call that runs that code, with the
  other file's line as related information;
- in copied lines only: the other file's own finding, reported when that file is linted: dropped here.

The program of a file: the folder above its package (the top folder of ``__init__.py`` files around it)
and its project's root (``pyproject.toml``, ``setup.cfg``, ``.git``). One :class:`Linker` per program
per process, so a run reads each imported file once; an editor's unsaved text replaces the file's
(:func:`set_unsaved_text`).
"""

from __future__ import annotations

import ast
import os
import re
from pathlib import Path
from typing import Dict, List, Optional, Tuple

from inplace_lint.engine.limits import max_file_characters
from inplace_lint.model.findings import Finding, LintError, Position, Related
from inplace_lint.model.records import FrozenRecord
from inplace_lint.project.index import ProjectIndex
from inplace_lint.project.copy_worth import names_run_with_grad, writes_in_place
from inplace_lint.project.linking import Linked, Linker, names_loaded
from inplace_lint.project.modules import SearchPath, find_project_root
from inplace_lint.syntax.lines import char_column, split_lines

# INPLACE_LINT_WHOLE_PROGRAM=1 lints each file with its program. Off by default: linked, a lint costs
# ~1.65x the CPU on timm, ~1.5x on torchvision (every importer analyses the copies again); summaries
# computed once per file are what will let it be the default
WHOLE_PROGRAM_ENV = "INPLACE_LINT_WHOLE_PROGRAM"

_LINKERS: Dict[Tuple[Path, ...], Linker] = {}
_ROOTS: Dict[str, Tuple[Path, ...]] = {}  # folder -> the search roots of files there
_UNSAVED: Dict[Path, str] = {}
_LAST_FILES: Dict[str, Tuple[Path, ...]] = {}
_LAST_LINKER: List[Linker] = []  # the linker of the last link, which holds the tree of the text it linked


def enabled(whole_program: bool = False) -> bool:
    """Linked with its program: by the ``whole-program`` setting, or the environment's opt-in."""
    return whole_program or os.environ.get(WHOLE_PROGRAM_ENV, "0").strip().lower() in ("1", "true", "yes", "on")


def package_root(folder: Path) -> Path:
    """The folder holding the outermost package around ``folder`` (``folder`` itself when it is none)."""
    while (folder / "__init__.py").is_file() and folder.parent != folder:
        folder = folder.parent
    return folder


def _roots(folder: str) -> Tuple[Path, ...]:
    known = _ROOTS.get(folder)
    if known is None:
        here = Path(folder)
        project = SearchPath.for_project(find_project_root(here)).roots
        known = _ROOTS[folder] = tuple(dict.fromkeys((package_root(here),) + project))
    return known


def linker_for(path: str, whole_program: bool = False) -> Optional[Linker]:
    """The linker of the program ``path`` (a file on disk) belongs to; None for text that is no file."""
    if not path or path.startswith("<") or path == "-" or not enabled(whole_program):
        return None
    full = os.path.abspath(path)
    if not os.path.isfile(full):
        return None
    roots = _roots(os.path.dirname(full))
    linker = _LINKERS.get(roots)
    if linker is None:
        linker = _LINKERS[roots] = Linker(ProjectIndex(SearchPath(roots=roots), overlay=dict(_UNSAVED)),
                                          writes_in_place=writes_in_place, uses=names_run_with_grad)
    return linker


def set_unsaved_text(path: str, text: Optional[str]) -> None:
    """An editor's text of ``path`` (None: closed, the file on disk again), for every program."""
    key = Path(os.path.abspath(path))
    if text is None:
        _UNSAVED.pop(key, None)
    else:
        _UNSAVED[key] = text
    for linker in _LINKERS.values():
        linker.index.update(key, text)


def link(source: str, path: str, whole_program: bool = False) -> Optional[Linked]:
    """``source`` with what it imports from its program, or None when it imports nothing there (or is
    too large to lint: the lint refuses it with its one message)."""
    if "import" not in source:
        return None
    try:
        if len(source) > max_file_characters():
            return None
    except LintError:  # a bad size limit: the lint says so
        return None
    linker = linker_for(path, whole_program)
    _LAST_LINKER[:] = [] if linker is None else [linker]
    if linker is None:
        return None
    linked = linker.link(Path(path), source)
    _LAST_FILES[os.path.abspath(path)] = linked.files
    return linked if linked.regions else None


def tree_of(text: str) -> Optional[ast.Module]:
    """The ``ast`` tree of ``text`` if it is what the last :func:`link` linked (its ``Linked.text``, or
    ``source`` when it imports nothing there): the linker parsed the file's own lines already."""
    return _LAST_LINKER[0].tree_of(text) if _LAST_LINKER else None


def last_dependencies(path: str) -> Tuple[Path, ...]:
    """The other files the last lint of ``path`` in this process read (the language server re-lints an
    open document when one of them changes)."""
    return _LAST_FILES.get(os.path.abspath(path), ())


# --- findings of a linked text ------------------------------------------------------------------------

_ON_LINE = re.compile(r"\bon line (\d+)")


def split_findings(findings: List[Finding], linked: Linked, source: str, path: str,
                   include_foreign: bool = False) -> List[Finding]:
    """The findings of ``linked``'s text as the file's (see the module's docstring), sorted; with
    ``include_foreign``, after them the findings this file's code causes in the other files (their
    ``path`` is the other file's, their lines its lines): a lint of a whole program (the CLI) reports
    them in that file, where the write is."""
    own, foreign = [], []
    calls = None
    here = Path(os.path.abspath(path))
    for finding in findings:
        if finding.start.line <= linked.own_lines:
            own.append(_as_seen_from(finding, linked, here, path))
            continue
        saving_line = finding.evidence.saving_line
        at = None
        if saving_line is not None and saving_line <= linked.own_lines:
            # this file saved what the other file's code writes: reported here too, at the call
            if calls is None:
                calls = _Calls(source)
            at = calls.reaching(linked.reaching(finding.start.line), saving_line)
            if at is not None:
                own.append(_moved_to_call(finding, linked, path, at))
        if include_foreign:
            seen = _as_seen_from(finding, linked, linked.origin(finding.start.line)[0], path)
            if at is not None:
                seen = seen.replace(related=seen.related + (Related(
                    path=path, start=at.start, end=at.end,
                    message="this call runs the write on a tensor saved for backward"),))
            foreign.append(seen)
    own.sort(key=lambda f: (f.start.line, f.start.column, f.code))
    return own + foreign


def _display(other: Path, path: str) -> str:
    """``other`` as ``path`` is written: absolute, or relative to the current folder."""
    if os.path.isabs(path):
        return str(other)
    try:
        return os.path.relpath(other)
    except ValueError:  # another drive
        return str(other)


def _where(linked: Linked, line: int, here: Path) -> Tuple[Path, int]:
    """(file, line there) of a line of the linked text (own lines: the linted file's)."""
    origin = linked.origin(line)
    return origin if origin is not None else (here, line)


def _as_seen_from(finding: Finding, linked: Linked, file: Path, path: str) -> Finding:
    """``finding`` (lines of the linked text) as a finding of ``file``, the linted file (its own lines)
    or one it copies from: its lines are that file's, a line elsewhere is named with its file."""
    linted = Path(os.path.abspath(path))
    shown = path if file == linted else _display(file, path)

    def line_in(line: int) -> Tuple[Optional[str], int]:
        other, number = _where(linked, line, linted)
        return (None if other == file else _display(other, path) if other != linted else path), number

    def name(match) -> str:
        other, number = line_in(int(match.group(1)))
        return f"on line {number}" + (f" of {other}" if other else "")

    message = _ON_LINE.sub(name, finding.message)
    evidence = finding.evidence
    if evidence.saving_line:
        other, number = line_in(evidence.saving_line)
        evidence = evidence.replace(saving_line=number, saving_path=other)
    if evidence.grad_source_line:
        other, number = line_in(evidence.grad_source_line)
        evidence = evidence.replace(grad_source_line=None if other else number,
                                    grad_source_column=None if other else evidence.grad_source_column)
    fix = finding.fix
    if fix is not None and any(_where(linked, line, linted)[0] != file for edit in fix.edits
                               for line in (edit.start.line, edit.end.line)):
        fix = None  # it would edit another file (its title, in the message, still says what to do)
    if file == linted:
        return finding.replace(message=message, evidence=evidence, fix=fix)
    offset = finding.start.line - _where(linked, finding.start.line, linted)[1]
    return finding.replace(
        path=shown, message=message, evidence=evidence, fix=None, site=None,
        start=Position(finding.start.line - offset, finding.start.column),
        end=Position(finding.end.line - offset, finding.end.column))


def _moved_to_call(finding: Finding, linked: Linked, path: str, call: "_Call") -> Finding:
    file, line = linked.origin(finding.start.line)
    other = _display(file, path)
    seen = _as_seen_from(finding, linked, Path(os.path.abspath(path)), path)
    message = f"'{call.text}' runs line {line} of {other}, where {seen.message}"
    evidence = seen.evidence
    write = Related(path=other, start=Position(line, finding.start.column),
                    end=Position(line + finding.end.line - finding.start.line, finding.end.column),
                    message=f"'{evidence.inplace_op}' modifies '{evidence.tensor}' in place here")
    return seen.replace(message=message, start=call.start, end=call.end, site=None, fix=None,
                        related=finding.related + (write,))


def _one_line(text: str, limit: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 3] + "..."


class _Call(FrozenRecord):
    """A call of the file's own code: its range and its text on one line."""

    start: Position
    end: Position
    text: str


class _Calls:
    """The calls of the file's own code, with what each calls: a name, ``self.attr`` set from an
    expression naming it, or a local bound so."""

    def __init__(self, source: str):
        self.source = source
        self.lines = split_lines(source)
        try:
            self.tree = ast.parse(source)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            self.tree = None

    def reaching(self, names, saving_line: int) -> Optional[_Call]:
        """The call of the file that runs code named ``names``: in the function of the save, after it,
        if there is one; else the first after the save; else the first."""
        if self.tree is None or not names:
            return None
        attributes, locals_ = set(), set()
        for node in ast.walk(self.tree):
            if type(node) in (ast.Assign, ast.AnnAssign) and node.value is not None and \
                    names_loaded(node.value) & names:
                for target in (node.targets if type(node) is ast.Assign else [node.target]):
                    if type(target) is ast.Attribute and type(target.value) is ast.Name:
                        attributes.add(target.attr)
                    elif type(target) is ast.Name:
                        locals_.add(target.id)
            elif type(node) is ast.For and type(node.target) is ast.Name and (
                    names_loaded(node.iter) & names or _attributes(node.iter) & attributes):
                locals_.add(node.target.id)
        candidates = []
        for function in [n for n in ast.walk(self.tree) if type(n) in (ast.FunctionDef, ast.AsyncFunctionDef)]:
            inside = function.lineno <= saving_line <= (function.end_lineno or function.lineno)
            for node in ast.walk(function):
                if type(node) is ast.Call and _runs(node.func, names, attributes, locals_):
                    candidates.append((not inside, node.lineno < saving_line, node.lineno, node.col_offset, node))
        if not candidates:
            return None
        call = min(candidates, key=lambda c: c[:4])[4]
        text = _one_line(ast.get_source_segment(self.source, call) or "the call")
        return _Call(self._position(call.lineno, call.col_offset),
                     self._position(call.end_lineno, call.end_col_offset), text)

    def _position(self, line: int, byte_column: int) -> Position:
        """ast's (line, UTF-8 byte offset) as a Position (an offset in code points)."""
        text = self.lines[line - 1] if 0 < line <= len(self.lines) else ""
        return Position(line, char_column(text, byte_column))


def _attributes(node) -> set:
    return {n.attr for n in ast.walk(node) if type(n) is ast.Attribute}


def _runs(func, names, attributes, locals_) -> bool:
    while type(func) is ast.Subscript:  # self.blocks[i](x)
        func = func.value
    if type(func) is ast.Name:
        return func.id in names or func.id in locals_
    if type(func) is ast.Attribute:
        if type(func.value) is ast.Name and func.value.id == "self" and func.attr in attributes:
            return True
        if type(func.value) is ast.Name:  # Act.apply(x), act.forward(x)
            return func.value.id in names or func.value.id in locals_
        return _runs(func.value, names, attributes, locals_)
    if type(func) is ast.Call:
        return bool(names_loaded(func) & names)  # Act()(x)
    return False
