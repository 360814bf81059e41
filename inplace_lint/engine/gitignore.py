"""What the ``.gitignore`` files of a walked folder tree ignore (the cheap, common part of git's rules).

Read: the ``.gitignore`` of every folder the walk enters, applying to what lies under that folder.
Understood: comments, blank lines, ``dir/`` (folders only), ``/anchored`` and ``a/b`` (relative to the
``.gitignore``'s folder), ``*``, ``?``, ``[...]`` and ``**``. A ``.gitignore`` with a ``!negation`` is
left out entirely: re-including is order-dependent, and ignoring too much would hide files from the
linter silently (too little only lints a few extra files). Parent folders above the walked root, the
repository's ``.git/info/exclude`` and the global excludes file are not read.
"""

from __future__ import annotations

import os
import re
from typing import List, Optional, Pattern, Tuple

from inplace_lint.model.records import FrozenRecord


class IgnoreRule(FrozenRecord):
    regex: Pattern
    anchored: bool  # matched against the path relative to the .gitignore's folder, else the base name
    folders_only: bool


def _translate(glob: str) -> str:
    out, i = [], 0
    while i < len(glob):
        char = glob[i]
        if glob.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
            continue
        if glob.startswith("**", i):
            out.append(".*")
            i += 2
            continue
        if char == "*":
            out.append("[^/]*")
        elif char == "?":
            out.append("[^/]")
        elif char == "[":
            end = glob.find("]", i + 2 if glob[i + 1:i + 2] in ("!", "]") else i + 1)
            if end == -1:
                out.append(re.escape(char))
            else:
                body = glob[i + 1:end]
                if body.startswith("!"):
                    body = "^" + body[1:]
                out.append(f"[{body}]")
                i = end
        elif char == "\\" and i + 1 < len(glob):
            i += 1
            out.append(re.escape(glob[i]))
        else:
            out.append(re.escape(char))
        i += 1
    return "".join(out)


def parse(text: str) -> Optional[Tuple[IgnoreRule, ...]]:
    """The rules of one ``.gitignore``'s text, or None when it negates (then it is not used)."""
    rules: List[IgnoreRule] = []
    for raw in text.splitlines():
        line = raw.rstrip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("!"):
            return None
        folders_only = line.endswith("/")
        line = line.rstrip("/")
        if not line:
            continue
        anchored = "/" in line
        line = line.lstrip("/")
        rules.append(IgnoreRule(re.compile(_translate(line) + r"\Z"), anchored, folders_only))
    return tuple(rules)


def read(folder: str) -> Optional[Tuple[IgnoreRule, ...]]:
    """The rules of ``folder``'s ``.gitignore``: None when it has none, cannot be read, or negates."""
    try:
        with open(os.path.join(folder, ".gitignore"), encoding="utf-8", errors="replace") as handle:
            return parse(handle.read()) or None
    except OSError:
        return None


class GitIgnores:
    """The ``.gitignore`` rules in force during an ``os.walk``: call :meth:`enter` for each folder."""

    def __init__(self) -> None:
        self._by_folder: dict = {}

    def enter(self, folder: str) -> None:
        rules = read(folder)
        if rules:
            self._by_folder[os.path.abspath(folder)] = rules

    def ignores(self, path: str, is_folder: bool) -> bool:
        if not self._by_folder:
            return False
        full = os.path.abspath(path)
        name = os.path.basename(full)
        folder = os.path.dirname(full)
        while True:
            rules = self._by_folder.get(folder)
            if rules:
                relative = os.path.relpath(full, folder).replace(os.sep, "/")
                for rule in rules:
                    if rule.folders_only and not is_folder:
                        continue
                    if rule.regex.match(relative if rule.anchored else name):
                        return True
            parent = os.path.dirname(folder)
            if parent == folder:
                return False
            folder = parent
