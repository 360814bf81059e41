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
import re
from pathlib import Path
from typing import Dict, List, Optional, Set, Tuple

from inplace_lint.model.records import FrozenRecord, Record, factory
from inplace_lint.project.index import ProjectIndex, _digest
from inplace_lint.syntax.lines import split_lines
from inplace_lint.syntax.parsing import parse_quietly
from inplace_lint.project.modules import absolute_module, is_package_file, module_name, resolve_from_import

MAX_HOPS = 3
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
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
    line: int  # where the statement's node starts (after its decorators), and its byte column
    column: int


class _Import(FrozenRecord):
    text: str  # the statement, absolute, on one line
    module: str  # the module it names (absolute)
    attribute: Optional[str]  # the name taken from it (from-imports)


class _FileFacts(Record):
    text: str
    lines: Tuple[str, ...]
    definitions: Dict[str, _Definition]
    imports: Dict[str, _Import]  # local name -> its import
    # what the linker learnt of a definition when it first needed it: most are never reached
    loads: Dict[_Definition, frozenset] = factory(dict)
    writes: Dict[_Definition, bool] = factory(dict)
    texts: Dict[_Definition, str] = factory(dict)

    def text_of(self, definition: _Definition) -> str:
        """Its lines (one string each time: the linker's hooks may keep what they learnt of the last)."""
        known = self.texts.get(definition)
        if known is None:
            known = self.texts[definition] = "\n".join(self.lines[definition.first - 1:definition.last])
        return known

    def loads_of(self, definition: _Definition) -> frozenset:
        """The names the definition refers to (an assignment: its value's)."""
        known = self.loads.get(definition)
        if known is None:
            # its lines alone parse as the statement (at its line, in its column) unless it starts on a
            # line that ends another statement (``a = (1,\n2); b = a``): then the whole text
            statement = _statement_at(definition_tree(self.text_of(definition)),
                                      definition.line - definition.first + 1, definition.column)
            if statement is None:
                statement = _statement_at(_parse(self.text), definition.line, definition.column)
            if statement is None:
                known = frozenset()
            else:
                known = names_loaded(statement.value if definition.kind == "assign" else statement)
            self.loads[definition] = known
        return known


_LAST_TREE: list = []  # [text, its tree]


def definition_tree(text: str) -> Optional[ast.Module]:
    """The ``ast`` tree of a definition's text (None: it does not parse alone), kept for the next question
    about the same text (the linker reads its names, its hooks what it writes): read it, never change it."""
    if _LAST_TREE and _LAST_TREE[0] is text:
        return _LAST_TREE[1]
    tree = _parse(text)
    _LAST_TREE[:] = [text, tree]
    return tree


def _statement_at(tree: Optional[ast.Module], line: int, column: int) -> Optional[ast.stmt]:
    if tree is None:
        return None
    for statement in tree.body:
        if statement.lineno == line and statement.col_offset == column:
            return statement
    return None


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


def _parse(text: str) -> Optional[ast.Module]:
    """Its ``ast`` tree as the lint parses it; None when it does not parse."""
    try:
        return parse_quietly(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def _facts(path: Path, text: str, tree: ast.Module, index: ProjectIndex) -> _FileFacts:
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
                kind="class" if kind is ast.ClassDef else "def", line=statement.lineno,
                column=statement.col_offset)
        elif kind in (ast.Assign, ast.AnnAssign):
            targets = statement.targets if kind is ast.Assign else [statement.target]
            if statement.value is None or not all(type(t) is ast.Name for t in targets):
                continue
            fact = _Definition(first=statement.lineno, last=statement.end_lineno or statement.lineno,
                               kind="assign", line=statement.lineno, column=statement.col_offset)
            for target in targets:
                definitions[target.id] = fact
        elif kind in (ast.Import, ast.ImportFrom):
            for bound, fact in _import_facts(statement, importer, package):
                imports[bound] = fact
                definitions.pop(bound, None)
    return _FileFacts(text=text, lines=tuple(_split_lines(text)), definitions=definitions, imports=imports)


class Linker:
    """Links files of one program; what it learnt of each file is kept by the file's content."""

    def __init__(self, index: ProjectIndex, writes_in_place=None, uses=None):
        """``writes_in_place(text)``: may this definition's text write a tensor in place? Only definitions
        that do, or that use one that does (an ``nn.Module`` building an in-place activation class), are
        copied: a hazard across files needs the write in the other file, and copying everything a file
        imports cost several times the lint itself. ``uses(text)``: the names among those it refers to
        whose writes count for it (None: all)."""
        self.index = index
        self.writes_in_place = writes_in_place
        self.uses = uses
        self._worth: Dict[Path, Dict[str, bool]] = {}  # file -> name -> worth copying
        self._facts: Dict[Path, Tuple[str, Optional[_FileFacts]]] = {}  # file -> (its text, its facts)
        # file -> (digest of its text, its Linked, (file read, its text) for each file read)
        self._links: Dict[Path, Tuple[str, Linked, Tuple[Tuple[Path, str], ...]]] = {}
        self._read: Dict[Path, None] = {}
        # during one link: the texts read and the imports resolved (each file is read, and each name
        # looked up on disk, once a link, not once a mention)
        self._texts: Optional[Dict[Path, Optional[str]]] = None
        self._found: Dict[Tuple[str, Optional[str]], Optional[Tuple[Path, str]]] = {}
        # the ``ast`` tree of the last linked text, for the lint of that text: (text, own tree, pieces)
        self._tree: Optional[Tuple[str, ast.Module, List[Tuple[int, str]]]] = None
        self.files_read = 0  # files whose facts were computed: what a test counts

    def _text(self, path: Path) -> Optional[str]:
        texts = self._texts
        if texts is None:
            return self.index.text(path)
        if path not in texts:
            texts[path] = self.index.text(path)
        return texts[path]

    def facts(self, path: Path) -> Optional[_FileFacts]:
        path = Path(os.path.abspath(path))
        text = self._text(path)
        if text is None:
            return None
        known = self._facts.get(path)
        if known is not None and known[0] == text:
            return known[1]
        self.files_read += 1
        tree = _parse(text)
        facts = None if tree is None else _facts(path, text, tree, self.index)
        self._remember(path, text, facts)
        return facts

    def _remember(self, path: Path, text: str, facts: Optional[_FileFacts]) -> None:
        self._worth.pop(path, None)
        self._facts[path] = (text, facts)

    def _writes(self, facts: _FileFacts, definition: _Definition) -> bool:
        """May the definition write a tensor in place (``writes_in_place`` of its text)?"""
        if self.writes_in_place is None:
            return True
        known = facts.writes.get(definition)
        if known is None:
            known = facts.writes[definition] = bool(self.writes_in_place(facts.text_of(definition)))
        return known

    @staticmethod
    def _words(facts: _FileFacts, definition: _Definition) -> List[str]:
        """The names of the file its text may use, sorted: its words (all its names when it is not
        ASCII: Python normalises some identifiers)."""
        text = facts.text_of(definition)
        words = set(_WORD.findall(text)) if text.isascii() else facts.loads_of(definition)
        return sorted(word for word in words if word in facts.definitions or word in facts.imports)

    def _uses(self, facts: _FileFacts, definition: _Definition) -> frozenset:
        loads = facts.loads_of(definition)
        if self.uses is None:
            return loads
        counted = self.uses(facts.text_of(definition))
        return loads if counted is None else loads & counted

    def worth_copying(self, file: Path, name: str, hops: int = 1, active=None) -> bool:
        """Does the definition ``name`` of ``file`` write in place, or use (up to MAX_HOPS files away)
        a definition that does?"""
        key = (file, name)
        known = self._worth.get(file, {}).get(name)
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
            answer = self._writes(facts, definition)
            # the words of its text first (a definition none of whose words is worth copying need not be
            # parsed for its names), then whether the one found worth is a name it uses
            for used in () if answer else self._words(facts, definition):
                if used in facts.definitions and used != name:
                    worth = self.worth_copying(file, used, hops, active)
                elif used in facts.imports and hops < MAX_HOPS:
                    fact = facts.imports[used]
                    found = self._file_of(fact.module, fact.attribute)
                    worth = found is not None and self.worth_copying(*found, hops + 1, active)
                else:
                    continue
                if worth and used in self._uses(facts, definition):
                    answer = True
                    break
        active.discard(key)
        self._worth.setdefault(file, {})[name] = answer
        return answer

    def _file_of(self, module: str, attribute: Optional[str]) -> Optional[Tuple[Path, str]]:
        """The project file defining ``attribute`` of ``module`` (a submodule is no definition)."""
        if attribute is None:
            return None
        key = (module, attribute)
        if key in self._found:
            return self._found[key]
        found = None
        for target in resolve_from_import(module, False, 0, module, [(attribute, None)], self.index.search):
            if target.attribute is not None:
                found = target.file, target.attribute
                break
        if self._texts is not None:
            self._found[key] = found
        return found

    def link(self, path: Path, source: str) -> Linked:
        """``source`` (the text of ``path``) with the definitions it imports from its program appended:
        computed again only when ``source`` or one of the files it copied from changed."""
        path = Path(os.path.abspath(path))
        self._tree = None
        self._texts, self._found = {}, {}
        try:
            digest = _digest(source)
            known = self._links.get(path)
            if known is not None and known[0] == digest and all(
                    (self._text(file) or "") == text for file, text in known[2]):
                return known[1]
            linked = self._link(path, source)
            read = tuple((file, self._text(file) or "") for file in self._read)
            self._links[path] = (digest, linked, read)
            return linked
        finally:
            self._texts, self._found = None, {}

    def tree_of(self, text: str) -> Optional[ast.Module]:
        """The ``ast`` tree of ``text`` when it is the text the last :meth:`link` returned (its own
        lines parsed once, for linking and for the lint), else None; given once."""
        known, self._tree = self._tree, None
        if known is None or known[0] is not text:
            return None
        _, tree, pieces = known
        body = list(tree.body)
        try:
            for line, piece in pieces:  # each copied statement, parsed at its line
                parsed = _parse("\n" * (line - 1) + piece)
                if parsed is None:
                    return None
                body.extend(parsed.body)
        except RecursionError:
            return None
        return ast.Module(body=body, type_ignores=[])

    def _link(self, path: Path, source: str) -> Linked:
        self._read: Dict[Path, None] = {}
        known = self._facts.get(path)
        if known is not None and known[0] == source:
            own, tree = known[1], None
        else:
            # kept as the file's facts too (they are the text's): a file linted and imported is parsed once
            tree = _parse(source)
            own = None if tree is None else _facts(path, source, tree, self.index)
            self._remember(path, source, own)
        if own is None:
            return Linked(text=source, own_lines=_line_count(source), regions=())
        # names the file binds itself (a definition, an assignment): a copied one must not take them
        taken: Set[str] = set(own.definitions)
        own_imports = own.imports
        # (file, name there, name here, hops, needed: what a copied definition uses, copied whatever it
        # writes, so that the copy means what it means in its file: replace_batch_norm's frozen class)
        work: List[Tuple[Path, str, str, int, bool]] = []
        for bound, fact in own_imports.items():
            found = self._file_of(fact.module, fact.attribute)
            if found is not None and found[0] != path:
                work.append((found[0], found[1], bound, 1, False))
        # (file, definition, name here, its text, the names it refers to)
        segments: List[Tuple[Path, _Definition, str, str, frozenset]] = []
        import_lines: Dict[str, None] = {}
        seen: Set[Tuple[Path, str]] = set()
        budget = MAX_LINKED_LINES
        while work:
            file, name, bound, hops, needed = work.pop(0)
            if (file, name) in seen or bound in taken:
                continue
            seen.add((file, name))
            self._read[file] = None
            facts = self.facts(file)
            if facts is None:
                continue
            definition = facts.definitions.get(name)
            # a class or table a copy uses is what its code means there (a function's result, unknown, is
            # taken as computed from its inputs, which a copy of one that writes nothing would not change)
            if definition is not None and self.writes_in_place is not None and \
                    not (needed and definition.kind != "def") and not self.worth_copying(file, name, hops) and \
                    not (hops == 1 and _grad_off_decorator(source, bound, facts.text_of(definition))):
                continue
            if definition is None:
                fact = facts.imports.get(name)  # a re-export (``from .layers import Act`` in __init__.py)
                found = self._file_of(fact.module, fact.attribute) if fact is not None else None
                if found is not None and hops < MAX_HOPS:
                    work.append((found[0], found[1], bound, hops + 1, needed))
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
            loads = facts.loads_of(definition)
            segments.append((file, definition, bound, "\n".join(lines), loads))
            for used in sorted(loads):
                if used in facts.definitions:
                    work.append((file, used, used, hops, True))
                elif used in facts.imports:
                    fact = facts.imports[used]
                    found = self._file_of(fact.module, fact.attribute)
                    if found is not None:
                        if hops < MAX_HOPS:
                            work.append((found[0], found[1], used, hops + 1, True))
                    elif used not in own_imports and used not in taken:
                        import_lines.setdefault(fact.text, None)
        own_lines = len(own.lines)
        if not segments:
            if tree is not None:
                self._tree = (source, tree, [])
            return Linked(text=source, own_lines=own_lines, regions=())
        parts = [source if source.endswith(("\n", "\r")) or not source else source + "\n", "\n", MARKER, "\n"]
        line = own_lines + 2
        pieces: List[Tuple[int, str]] = []  # (line, text) of each statement after the file's own
        for statement in import_lines:
            parts += [statement, "\n"]
            line += 1
            pieces.append((line, statement))
        regions = []
        for file, definition, bound, text, loads in segments:
            parts.append("\n\n")
            line += 2
            first = line + 1
            parts += [text, "\n"]
            pieces.append((first, text))
            last = first + text.count("\n")
            regions.append(LinkedRegion(first=first, last=last, path=file, offset=first - definition.first,
                                        name=bound, loads=loads))
            line = last
        linked = Linked(text="".join(parts), own_lines=own_lines, regions=tuple(regions))
        if tree is not None:
            self._tree = (linked.text, tree, pieces)
        return linked


def _grad_off_decorator(source: str, bound: str, text: str) -> bool:
    """Is ``bound`` a decorator of ``source`` (``@smart_inference_mode()``) whose definition turns grad
    off: what it wraps runs under no_grad, which the analysis of the file's own code needs to know."""
    return ("no_grad" in text or "inference_mode" in text) and \
        re.search(r"^[ \t]*@" + re.escape(bound) + r"\b", source, re.M) is not None


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
