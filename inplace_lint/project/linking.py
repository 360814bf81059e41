"""A file with the definitions it imports from the rest of its program appended: what the analysis reads.

``from .layers import Act`` in ``model.py`` names a class of another file of the project. The analysis
judges one text, so the text it is given is ``model.py`` itself, unchanged line for line, followed by
``Act``'s definition copied from ``layers.py`` (and, transitively, what that definition uses there: its
helpers, its module-level tables, the imports they need, the definitions those import from further
files). A top-level definition after an import of the same name is what the name means (Python rebinds
it), so the analysis sees the class, not an unknown import. :class:`Linked` says which lines came from
where, so that findings can be told apart: those in the file's own lines are its findings; those in
copied lines are about another file.

Nothing is imported or run; files are read through the :class:`~inplace_lint.project.index.ProjectIndex`
(the editor's unsaved text wins). Bounded: at most ``MAX_HOPS`` files away, ``MAX_LINKED_LINES`` copied
lines, and no single definition over ``MAX_DEFINITION_LINES`` (a framework's base class of thousands of
lines is left unknown, as before).
"""

from __future__ import annotations

import ast
import os
from pathlib import Path
from typing import Dict, List, Optional, Set, Tuple

from inplace_lint.model.records import FrozenRecord, Record
from inplace_lint.project.index import ProjectIndex, _digest
from inplace_lint.syntax.lines import split_lines
from inplace_lint.project.modules import absolute_module, is_package_file, module_name, resolve_from_import

MAX_HOPS = 3
MAX_LINKED_LINES = 300
MAX_DEFINITION_LINES = 150
MARKER = "# inplace-lint: definitions this file imports, copied from the files that define them"


class LinkedRegion(FrozenRecord):
    """Lines ``first``..``last`` of the linked text are lines ``first - offset``.. of ``path``; ``name`` is
    the name the copied definition is bound to here."""

    first: int
    last: int
    path: Path
    offset: int
    name: str
    loads: frozenset  # the names the definition refers to


class Linked(FrozenRecord):
    text: str  # the file's own text, then the copied definitions
    own_lines: int  # lines 1..own_lines are the file's own
    regions: Tuple[LinkedRegion, ...]

    @property
    def files(self) -> Tuple[Path, ...]:
        """The other files the text copies from, each once."""
        return tuple(dict.fromkeys(region.path for region in self.regions))

    def region_of(self, line: int) -> Optional[LinkedRegion]:
        for region in self.regions:
            if region.first <= line <= region.last:
                return region
        return None

    def origin(self, line: int) -> Optional[Tuple[Path, int]]:
        """(file, line) of a copied line, None for the file's own lines (and the linking lines between)."""
        region = self.region_of(line)
        return None if region is None else (region.path, line - region.offset)

    def reaching(self, line: int) -> Set[str]:
        """The names bound here to copied definitions whose code runs the copied ``line``: its own
        definition's, and those of every copied definition that refers to one of those."""
        region = self.region_of(line)
        if region is None:
            return set()
        names = {region.name}
        grew = True
        while grew:
            grew = False
            for other in self.regions:
                if other.name not in names and other.loads & names:
                    names.add(other.name)
                    grew = True
        return names


class _Definition(FrozenRecord):
    first: int  # 1-based, decorators included
    last: int
    kind: str  # "def", "class", "assign"
    loads: frozenset
    writes: bool = True  # its text may write a tensor in place (the linker's ``writes_in_place``)


class _Import(FrozenRecord):
    text: str  # the statement, absolute, on one line
    module: str  # the module it names (absolute)
    attribute: Optional[str]  # the name taken from it (from-imports)


class _FileFacts(Record):
    lines: Tuple[str, ...]
    definitions: Dict[str, _Definition]
    imports: Dict[str, _Import]  # local name -> its import


def names_loaded(node: ast.AST) -> frozenset:
    """Every plain name ``node`` mentions."""
    return frozenset(n.id for n in ast.walk(node) if type(n) is ast.Name)


def _import_facts(statement, importer: str, package: bool) -> List[Tuple[str, _Import]]:
    out = []
    if type(statement) is ast.Import:
        for alias in statement.names:
            if alias.asname:
                out.append((alias.asname, _Import(f"import {alias.name} as {alias.asname}", alias.name, None)))
            else:
                top = alias.name.split(".")[0]
                out.append((top, _Import(f"import {alias.name}", alias.name, None)))
    elif type(statement) is ast.ImportFrom:
        base = absolute_module(importer, package, statement.level, statement.module)
        if base is None:
            return out
        for alias in statement.names:
            if alias.name == "*":
                continue
            bound = alias.asname or alias.name
            text = f"from {base} import {alias.name}" + (f" as {alias.asname}" if alias.asname else "")
            out.append((bound, _Import(text, base, alias.name)))
    return out


def _facts(path: Path, text: str, index: ProjectIndex, writes_in_place=None) -> Optional[_FileFacts]:
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    importer = module_name(path, index.search) or path.stem
    package = is_package_file(path)
    definitions: Dict[str, _Definition] = {}
    imports: Dict[str, _Import] = {}
    for statement in tree.body:
        kind = type(statement)
        if kind in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef):
            first = min([statement.lineno] + [d.lineno for d in statement.decorator_list])
            definitions[statement.name] = _Definition(
                first=first, last=statement.end_lineno or statement.lineno,
                kind="class" if kind is ast.ClassDef else "def", loads=names_loaded(statement))
        elif kind in (ast.Assign, ast.AnnAssign):
            targets = statement.targets if kind is ast.Assign else [statement.target]
            if statement.value is None or not all(type(t) is ast.Name for t in targets):
                continue
            fact = _Definition(first=statement.lineno, last=statement.end_lineno or statement.lineno,
                               kind="assign", loads=names_loaded(statement.value))
            for target in targets:
                definitions[target.id] = fact
        elif kind in (ast.Import, ast.ImportFrom):
            for bound, fact in _import_facts(statement, importer, package):
                imports[bound] = fact
                definitions.pop(bound, None)
    lines = tuple(_split_lines(text))
    if writes_in_place is not None:
        definitions = {name: fact.replace(writes=writes_in_place("\n".join(lines[fact.first - 1:fact.last])))
                       for name, fact in definitions.items()}
    return _FileFacts(lines=lines, definitions=definitions, imports=imports)


class Linker:
    """Links files of one program; what it learnt of each file is kept by the file's content."""

    def __init__(self, index: ProjectIndex, writes_in_place=None):
        """``writes_in_place(text)``: may this definition's text write a tensor in place? Only definitions
        that do, or that use one that does (an ``nn.Module`` building an in-place activation class), are
        copied: a hazard across files needs the write in the other file, and copying everything a file
        imports cost several times the lint itself."""
        self.index = index
        self.writes_in_place = writes_in_place
        self._worth: Dict[Tuple[Path, str], bool] = {}
        self._facts: Dict[Path, Tuple[str, Optional[_FileFacts]]] = {}
        # file -> (digest of its text, its Linked, (file read, digest of its text) for each file read)
        self._links: Dict[Path, Tuple[str, Linked, Tuple[Tuple[Path, str], ...]]] = {}
        self._read: Dict[Path, None] = {}
        self.files_read = 0  # files whose facts were computed: what a test counts

    def facts(self, path: Path) -> Optional[_FileFacts]:
        path = Path(os.path.abspath(path))
        text = self.index.text(path)
        if text is None:
            return None
        digest = _digest(text)
        known = self._facts.get(path)
        if known is not None and known[0] == digest:
            return known[1]
        self.files_read += 1
        facts = _facts(path, text, self.index, self.writes_in_place)
        self._worth = {key: value for key, value in self._worth.items() if key[0] != path}
        self._facts[path] = (digest, facts)
        return facts

    def worth_copying(self, file: Path, name: str, hops: int = 1, active=None) -> bool:
        """Does the definition ``name`` of ``file`` write in place, or use (up to MAX_HOPS files away)
        a definition that does?"""
        key = (file, name)
        known = self._worth.get(key)
        if known is not None:
            return known
        active = set() if active is None else active
        if key in active:
            return False  # a cycle: what the others find decides
        active.add(key)
        facts = self.facts(file)
        answer = False
        definition = facts.definitions.get(name) if facts is not None else None
        if definition is None and facts is not None and name in facts.imports:
            fact = facts.imports[name]  # a re-export
            found = self._file_of(fact.module, fact.attribute)
            answer = found is not None and hops < MAX_HOPS and self.worth_copying(*found, hops + 1, active)
        elif definition is not None:
            answer = definition.writes
            for used in sorted(definition.loads):
                if answer:
                    break
                if used in facts.definitions and used != name:
                    answer = self.worth_copying(file, used, hops, active)
                elif used in facts.imports and hops < MAX_HOPS:
                    fact = facts.imports[used]
                    found = self._file_of(fact.module, fact.attribute)
                    answer = found is not None and self.worth_copying(*found, hops + 1, active)
        active.discard(key)
        self._worth[key] = answer
        return answer

    def _file_of(self, module: str, attribute: Optional[str]) -> Optional[Tuple[Path, str]]:
        """The project file defining ``attribute`` of ``module`` (a submodule is no definition)."""
        if attribute is None:
            return None
        for target in resolve_from_import(module, False, 0, module, [(attribute, None)], self.index.search):
            if target.attribute is not None:
                return target.file, target.attribute
        return None

    def link(self, path: Path, source: str) -> Linked:
        """``source`` (the text of ``path``) with the definitions it imports from its program appended:
        computed again only when ``source`` or one of the files it copied from changed."""
        path = Path(os.path.abspath(path))
        digest = _digest(source)
        known = self._links.get(path)
        if known is not None and known[0] == digest and all(
                _digest(self.index.text(file) or "") == text for file, text in known[2]):
            return known[1]
        linked = self._link(path, source)
        read = tuple((file, _digest(self.index.text(file) or "")) for file in self._read)
        self._links[path] = (digest, linked, read)
        return linked

    def _link(self, path: Path, source: str) -> Linked:
        self._read: Dict[Path, None] = {}
        own = _facts(path, source, self.index)
        if own is None:
            return Linked(text=source, own_lines=_line_count(source), regions=())
        # names the file binds itself (a definition, an assignment): a copied one must not take them
        taken: Set[str] = set(own.definitions)
        own_imports = own.imports
        work: List[Tuple[Path, str, str, int]] = []  # (file, name there, name here, hops)
        for bound, fact in own_imports.items():
            found = self._file_of(fact.module, fact.attribute)
            if found is not None and found[0] != path:
                work.append((found[0], found[1], bound, 1))
        segments: List[Tuple[Path, _Definition, str, str]] = []  # (file, definition, name here, its text)
        import_lines: Dict[str, None] = {}
        seen: Set[Tuple[Path, str]] = set()
        budget = MAX_LINKED_LINES
        while work:
            file, name, bound, hops = work.pop(0)
            if (file, name) in seen or bound in taken:
                continue
            seen.add((file, name))
            self._read[file] = None
            facts = self.facts(file)
            if facts is None:
                continue
            definition = facts.definitions.get(name)
            if definition is not None and self.writes_in_place is not None and \
                    not self.worth_copying(file, name, hops):
                continue
            if definition is None:
                fact = facts.imports.get(name)  # a re-export (``from .layers import Act`` in __init__.py)
                found = self._file_of(fact.module, fact.attribute) if fact is not None else None
                if found is not None and hops < MAX_HOPS:
                    work.append((found[0], found[1], bound, hops + 1))
                continue
            size = definition.last - definition.first + 1
            if size > MAX_DEFINITION_LINES or size > budget:
                continue
            budget -= size
            taken.add(bound)
            lines = list(facts.lines[definition.first - 1:definition.last])
            if bound != name:
                if definition.kind == "assign":
                    continue
                lines = _renamed(lines, definition.first, facts, name, bound)
            segments.append((file, definition, bound, "\n".join(lines)))
            for used in sorted(definition.loads):
                if used in facts.definitions:
                    work.append((file, used, used, hops))
                elif used in facts.imports:
                    fact = facts.imports[used]
                    found = self._file_of(fact.module, fact.attribute)
                    if found is not None:
                        if hops < MAX_HOPS:
                            work.append((found[0], found[1], used, hops + 1))
                    elif used not in own_imports and used not in taken:
                        import_lines.setdefault(fact.text, None)
        if not segments:
            return Linked(text=source, own_lines=_line_count(source), regions=())
        parts = [source if source.endswith(("\n", "\r")) or not source else source + "\n", "\n", MARKER, "\n"]
        line = _line_count(source) + 2
        for statement in import_lines:
            parts += [statement, "\n"]
            line += 1
        regions = []
        for file, definition, bound, text in segments:
            parts.append("\n\n")
            line += 2
            first = line + 1
            parts += [text, "\n"]
            last = first + text.count("\n")
            regions.append(LinkedRegion(first=first, last=last, path=file, offset=first - definition.first,
                                        name=bound, loads=definition.loads))
            line = last
        return Linked(text="".join(parts), own_lines=_line_count(source), regions=tuple(regions))


def _renamed(lines: List[str], first: int, facts: _FileFacts, name: str, bound: str) -> List[str]:
    """The definition's ``def name`` / ``class name`` header naming ``bound`` instead."""
    for i, text in enumerate(lines):
        stripped = text.lstrip()
        for keyword in ("def ", "async def ", "class "):
            if stripped.startswith(keyword + name):
                rest = stripped[len(keyword + name):]
                if rest[:1] in ("(", ":", " ", "["):
                    lines[i] = text[:len(text) - len(stripped)] + keyword + bound + rest
                    return lines
    return lines


def _split_lines(text: str) -> List[str]:
    """The lines as Python (and LibCST) count them, without an empty one after a final break."""
    lines = split_lines(text)
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def _line_count(text: str) -> int:
    return len(_split_lines(text))
