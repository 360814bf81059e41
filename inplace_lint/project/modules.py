"""Where a program's modules are: its root, and the file an import names, found as a type checker finds it.

Nothing is imported or run: a module is a file on the search path (the project's root, its ``src/``
folder, then the folders of installed packages the caller names, read-only), a package is a folder with
an ``__init__.py`` or, failing any, a namespace folder. An import that names no file here (a C extension,
a module of the standard library nobody asked for) resolves to None: unknown, never a guess.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterable, List, Optional, Sequence, Tuple

from inplace_lint.model.records import FrozenRecord

# A folder holding one of these is a project's root (the first one found going up from a file)
ROOT_MARKERS = ("pyproject.toml", "setup.cfg", "setup.py", ".git")


def find_project_root(start: Path) -> Path:
    """The nearest folder at or above ``start`` (a file or folder) holding a root marker; else the folder
    of ``start`` itself (one loose script is its own project)."""
    start = Path(os.path.abspath(start))
    folder = start if start.is_dir() else start.parent
    for candidate in (folder, *folder.parents):
        if any((candidate / marker).exists() for marker in ROOT_MARKERS):
            return candidate
    return folder


class SearchPath(FrozenRecord):
    """The folders module names are resolved in, in order: the project's own first."""

    roots: Tuple[Path, ...]

    @classmethod
    def for_project(cls, root: Path, site_dirs: Iterable[Path] = ()) -> "SearchPath":
        root = Path(os.path.abspath(root))
        own = [root / "src", root] if (root / "src").is_dir() else [root]
        return cls(roots=tuple(own) + tuple(Path(os.path.abspath(d)) for d in site_dirs))


def module_file(name: str, search: SearchPath) -> Optional[Path]:
    """The file of module ``name`` (``pkg/mod.py``, or ``pkg/mod/__init__.py`` for a package), or None.
    Every parent must be a package found in the same root, as Python would require."""
    parts = name.split(".")
    if not all(part.isidentifier() for part in parts):
        return None
    # strings and os.path, not Path objects: linking resolves thousands of names a run
    isdir, isfile, sep = os.path.isdir, os.path.isfile, os.sep
    for root in search.roots:
        folder = str(root)
        for part in parts[:-1]:
            folder = folder + sep + part
            if not isdir(folder):
                break
        else:
            leaf = folder + sep + parts[-1]
            if isfile(leaf + sep + "__init__.py"):
                return root.joinpath(*parts, "__init__.py")
            if isfile(leaf + ".py"):
                return root.joinpath(*parts[:-1], parts[-1] + ".py")
    return None


def module_name(path: Path, search: SearchPath) -> Optional[str]:
    """The dotted name ``path`` is imported by from the first root that holds it, or None."""
    path = Path(os.path.abspath(path))
    for root in search.roots:
        try:
            relative = path.relative_to(root)
        except ValueError:
            continue
        parts = list(relative.with_suffix("").parts)
        if parts and parts[-1] == "__init__":
            parts.pop()
        if parts and all(part.isidentifier() for part in parts):
            return ".".join(parts)
    return None


def is_package_file(path: Path) -> bool:
    return path.name == "__init__.py"


class ImportTarget(FrozenRecord):
    """One name an import statement binds and the file behind it: ``from . import layers`` binds
    ``layers`` to ``pkg/layers.py``; ``from .layers import Act`` binds ``Act``, defined in ``pkg/layers.py``
    (``attribute="Act"``); ``import a.b`` binds ``a`` and needs ``a/b.py``."""

    bound: str  # the local name
    module: str  # the module the file is
    file: Path
    attribute: Optional[str] = None  # the name taken from the module, when not a module itself


def absolute_module(importer: str, importer_is_package: bool, level: int, module: Optional[str]) -> Optional[str]:
    """``from ..x import y`` inside ``importer``: the absolute name of ``..x``, or None when the dots climb
    above the top package."""
    if level == 0:
        return module
    package = importer.split(".") if importer_is_package else importer.split(".")[:-1]
    if level - 1 > len(package) or (level - 1 == len(package) and not module):
        return None
    base = package[: len(package) - (level - 1)]
    return ".".join(base + ([module] if module else [])) or None


def resolve_from_import(importer: str, importer_is_package: bool, level: int, module: Optional[str],
                        names: Sequence[Tuple[str, Optional[str]]], search: SearchPath) -> List[ImportTarget]:
    """The files behind ``from <level dots><module> import name [as alias], ...`` in module ``importer``.
    A name is a submodule when such a file exists, else an attribute of the module's own file."""
    base = absolute_module(importer, importer_is_package, level, module)
    if base is None:
        return []
    targets = []
    base_file = module_file(base, search)
    for name, alias in names:
        if name == "*":
            continue
        sub = module_file(f"{base}.{name}", search)
        if sub is not None:
            targets.append(ImportTarget(bound=alias or name, module=f"{base}.{name}", file=sub))
        elif base_file is not None:
            targets.append(ImportTarget(bound=alias or name, module=base, file=base_file, attribute=name))
    return targets


def resolve_import(names: Sequence[Tuple[str, Optional[str]]], search: SearchPath) -> List[ImportTarget]:
    """The files behind ``import a.b.c [as x], ...``: without an alias the statement binds ``a`` and
    loads every package on the way; with one it binds the last module."""
    targets = []
    for name, alias in names:
        file = module_file(name, search)
        if file is None:
            continue
        targets.append(ImportTarget(bound=alias or name.split(".")[0], module=name, file=file))
    return targets
