"""A program's import graph and a store of per-file summaries that follows edits.

Each file's imports are read with ``ast`` (never imported, never run) and kept by the file's content
hash. A file's summary is a function of its text and of the summaries of the files it imports, so its
key is the hash of both: editing one file changes its key and, through the graph, the keys of the files
that import it, and nothing else is computed again. Cycles and very deep graphs are cut: a file met
again while its own summary is being computed is seen as unknown (``None``), never waited for.
"""

from __future__ import annotations

import ast
import hashlib
import os
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Set, Tuple

from inplace_lint.project.modules import (
    ImportTarget,
    SearchPath,
    is_package_file,
    module_name,
    resolve_from_import,
    resolve_import,
)

# A summary's computation sees the summaries of the files its file imports (None: unknown or cut)
Compute = Callable[[Path, str, Dict[Path, Any]], Any]

# How many files one summary may transitively wait for before the rest are cut to "unknown"
MAX_DEPTH = 64


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def imports_in(source: str) -> List[Tuple[int, Optional[str], List[Tuple[str, Optional[str]]], bool]]:
    """Every import statement of ``source``, anywhere in it (a function's lazy import counts): (level,
    module, [(name, alias)], is ``from``-import). Text that does not parse has none."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.append((0, None, [(a.name, a.asname) for a in node.names], False))
        elif isinstance(node, ast.ImportFrom):
            found.append((node.level, node.module, [(a.name, a.asname) for a in node.names], True))
    return found


class ProjectIndex:
    """The files of one program (a project root plus read-only installed packages) as linting sees them.

    ``overlay``: texts that replace what is on disk (the editor's unsaved buffers); ``update`` changes one.
    """

    def __init__(self, search: SearchPath, overlay: Optional[Dict[Path, str]] = None):
        self.search = search
        self._overlay: Dict[Path, str] = {self._key(p): t for p, t in (overlay or {}).items()}
        self._imports: Dict[Path, Tuple[str, Tuple[ImportTarget, ...]]] = {}  # file -> (digest, targets)
        self._summaries: Dict[Tuple[Path, str], Any] = {}  # (file, key) -> summary
        self._keys: Dict[Path, str] = {}  # file -> its summary key last computed
        self.computed = 0  # summaries computed (not served from the store): what a test counts

    @staticmethod
    def _key(path: Path) -> Path:
        return Path(os.path.abspath(path))

    def text(self, path: Path) -> Optional[str]:
        path = self._key(path)
        if path in self._overlay:
            return self._overlay[path]
        try:
            with open(path, encoding="utf-8") as handle:
                return handle.read()
        except (OSError, UnicodeDecodeError, ValueError):
            return None

    def update(self, path: Path, text: Optional[str]) -> None:
        """The editor's text for ``path`` (None: back to the file on disk)."""
        path = self._key(path)
        if text is None:
            self._overlay.pop(path, None)
        else:
            self._overlay[path] = text

    def imports(self, path: Path) -> Tuple[ImportTarget, ...]:
        """The files ``path``'s imports name that exist on the search path."""
        path = self._key(path)
        text = self.text(path)
        if text is None:
            return ()
        digest = _digest(text)
        cached = self._imports.get(path)
        if cached is not None and cached[0] == digest:
            return cached[1]
        name = module_name(path, self.search) or path.stem
        package = is_package_file(path)
        targets: List[ImportTarget] = []
        for level, module, names, is_from in imports_in(text):
            if is_from:
                targets.extend(resolve_from_import(name, package, level, module, names, self.search))
            else:
                targets.extend(resolve_import(names, self.search))
        result = tuple(t for t in targets if self._key(t.file) != path)
        self._imports[path] = (digest, result)
        return result

    def dependencies(self, path: Path) -> List[Path]:
        """The files ``path`` imports directly, each once, in order of first mention."""
        seen: Dict[Path, None] = {}
        for target in self.imports(path):
            seen.setdefault(self._key(target.file), None)
        return list(seen)

    def dependents(self, path: Path, among: List[Path]) -> Set[Path]:
        """The files of ``among`` that import ``path``, directly or through others (``path`` excluded)."""
        path = self._key(path)
        reverse: Dict[Path, Set[Path]] = {}
        for file in among:
            for dep in self.dependencies(file):
                reverse.setdefault(dep, set()).add(self._key(file))
        out: Set[Path] = set()
        work = [path]
        while work:
            for importer in reverse.get(work.pop(), ()):
                if importer not in out and importer != path:
                    out.add(importer)
                    work.append(importer)
        return out

    def summary(self, path: Path, compute: Compute) -> Any:
        """``compute(path, text, {dependency: its summary})``, served from the store while neither the text
        nor any dependency's summary changed."""
        return self._summary(self._key(path), compute, [])

    def _summary(self, path: Path, compute: Compute, active: List[Path]) -> Any:
        text = self.text(path)
        if text is None:
            return None
        active.append(path)
        try:
            deps: Dict[Path, Any] = {}
            parts = [_digest(text)]
            for dep in self.dependencies(path):
                if dep in active or len(active) > MAX_DEPTH:
                    deps[dep] = None  # a cycle, or too deep: unknown
                    parts.append(f"{dep}:cut")
                    continue
                deps[dep] = self._summary(dep, compute, active)
                parts.append(f"{dep}:{self._keys.get(dep, '')}")
            key = _digest("\n".join(parts))
            if (path, key) not in self._summaries:
                old = self._keys.get(path)
                if old is not None:
                    self._summaries.pop((path, old), None)  # one live summary per file
                self._summaries[(path, key)] = compute(path, text, deps)
                self.computed += 1
            self._keys[path] = key
            return self._summaries[(path, key)]
        finally:
            active.pop()
