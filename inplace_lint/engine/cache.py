"""Content-hash cache of the engine's findings, so that an unchanged file is never analysed twice.

Key: SHA-256 of the file's text, its path as reported, the lint options, and a fingerprint of the linter
itself (its version, the source of every module of the package and the knowledge table), so a changed
linter or knowledge file never reads an old answer. Value: the findings as JSON (``site`` and ``fix``
included: fixes and every output format work from a cached answer).

One small file per entry under ``<cache dir>/<2 hex>/<62 hex>.json``. A re-run need not even read an
unchanged file: :class:`StatIndex` remembers each file's final findings by its size, times and inode.
Writes go to a temporary file in the same folder and are renamed into place (atomic on POSIX and
Windows), so concurrent runs never see a half-written entry; an entry that cannot be read or decoded is
a miss (and is rewritten), never an error.
Any I/O failure (read-only or missing folder) only disables caching for that entry.

Default folder: ``$INPLACE_LINT_CACHE_DIR``, else ``$XDG_CACHE_HOME/inplace-lint``, else
``~/.cache/inplace-lint``. Entries are content-addressed, so one folder serves every project.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from functools import lru_cache
from pathlib import Path
from typing import Callable, List, Optional

from inplace_lint.engine import program
from inplace_lint.model.findings import Edit, Evidence, Finding, Fix, InplaceSite, LintOptions, Position, Related
from inplace_lint.model.records import as_dict
from inplace_lint.model.version import __version__

SCHEMA = 2


def default_dir() -> Path:
    explicit = os.environ.get("INPLACE_LINT_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "inplace-lint"


@lru_cache(maxsize=None)
def fingerprint() -> str:
    """What the findings depend on besides the input: the linter's own code and its knowledge."""
    digest = hashlib.sha256(f"inplace-lint {__version__} schema {SCHEMA}".encode())
    package = Path(__file__).resolve().parents[1]  # the whole inplace_lint package
    for path in sorted(package.rglob("*")):
        if path.suffix in (".py", ".json") and "__pycache__" not in path.parts:
            digest.update(str(path.relative_to(package)).encode())
            try:
                digest.update(path.read_bytes())
            except OSError:
                digest.update(b"?")
    return digest.hexdigest()


def genuine() -> bool:
    """Is this process linting with the package's own code? A test that swaps in a stand-in analysis
    (``sys.modules``, or ``analyze_module`` in inplace_lint.rules.report) or patches the engine must not
    read, or write, real answers."""
    package = Path(__file__).resolve().parents[1]  # the whole inplace_lint package
    for name, module in list(sys.modules.items()):
        if name == "inplace_lint" or name.startswith("inplace_lint."):
            file = getattr(module, "__file__", None)
            if not file:
                return False
            try:
                Path(file).resolve().relative_to(package)
            except ValueError:
                return False
    engine = sys.modules.get("inplace_lint.engine.core")
    if engine is not None:
        for attr, home in (("lint_source", "core"), ("lint_with_tree", "core"), ("parse", "core"),
                           ("might_have_hazard", "prefilter")):
            if getattr(getattr(engine, attr, None), "__module__", None) != "inplace_lint.engine." + home:
                return False
    rules = sys.modules.get("inplace_lint.rules.report")
    if rules is not None:
        seam = getattr(rules, "analyze_module", None)
        return getattr(seam, "__module__", None) == "inplace_lint.rules.report"
    return True


def key(source: str, path: str, options: LintOptions) -> str:
    """The entry of ``source`` linted as ``path``: with what it imports from its program, whose texts its
    findings depend on too (inplace_lint.engine.program)."""
    linked = program.link(source, path, options.whole_program)
    if linked is not None:
        source = linked.text
    digest = hashlib.sha256(fingerprint().encode())
    digest.update(b"\0")
    digest.update(path.encode("utf-8", "surrogatepass"))
    digest.update(b"\0")
    digest.update(repr((options.assume_params_are_tensors, tuple(options.select), tuple(options.ignore),
                        sorted(options.extra.items()) if options.extra else ())).encode())
    digest.update(b"\0")
    digest.update(source.encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


class Cache:
    def __init__(self, folder: Optional[Path] = None):
        self.folder = Path(folder) if folder is not None else default_dir()
        self.hits = 0
        self.misses = 0

    def _entry(self, digest: str) -> Path:
        return self.folder / digest[:2] / f"{digest[2:]}.json"

    def get(self, digest: str) -> Optional[List[Finding]]:
        try:
            with open(self._entry(digest), "rb") as handle:
                data = json.loads(handle.read())
            if not isinstance(data, dict) or data.get("schema") != SCHEMA:
                return None
            return [_finding(item) for item in data["findings"]]
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return None

    def put(self, digest: str, findings: List[Finding]) -> None:
        entry = self._entry(digest)
        payload = {"schema": SCHEMA, "findings": [as_dict(f) for f in findings]}
        data = json.dumps(payload, separators=(",", ":"))
        try:
            entry.parent.mkdir(parents=True, exist_ok=True)
        except OSError:
            return  # a cache that cannot be written is no cache, not an error
        self._ignore_in_git()
        _write_atomically(entry, data)

    def _ignore_in_git(self) -> None:
        marker = self.folder / ".gitignore"
        if not marker.exists():
            try:
                marker.write_text("# created by inplace-lint\n*\n")
            except OSError:
                pass

    def stat_index(self) -> "StatIndex":
        return StatIndex(self.folder / "index", fingerprint())

    def linter(self, lint: Callable[[str, str, LintOptions], List[Finding]]):
        """``lint`` (the engine's ``lint_source``), answering from the cache when it can."""

        def cached(source: str, path: str, options: LintOptions) -> List[Finding]:
            digest = key(source, path, options)
            found = self.get(digest)
            if found is not None:
                self.hits += 1
                return found
            self.misses += 1
            findings = lint(source, path, options)  # a LintError propagates and is not cached
            self.put(digest, findings)
            return findings

        return cached


class StatIndex:
    """A file's final findings (after ``noqa`` and per-file ignores), by what ``os.stat`` says of it: a
    re-run answers an unchanged file without reading or hashing it (most of a cached re-run's time).

    One index per folder of linted files: ``<cache dir>/index/<digest of the linter's fingerprint and the
    folder>.json``, mapping each file name to its size, modification and change times (ns), inode, the
    digest of the settings and the display path it was linted under, and its findings. Any difference is a
    miss, and the content-hash cache answers. A file is remembered only if it was last modified more than
    ``RACY_SECONDS`` before its ``stat``: a second write within the file system's timestamp tick could keep
    its size and times (git's "racily clean" entries). Written like cache entries (a temporary file renamed
    into place); an unreadable or malformed index is empty."""

    RACY_SECONDS = 2.0

    def __init__(self, folder: Path, linter_fingerprint: str):
        self.folder = folder
        self.fingerprint = linter_fingerprint
        self._folders: dict = {}  # folder text -> {name: entry}
        self._changed: set = set()  # folders with an entry to write
        self._settings: dict = {}  # settings -> their digest

    def _file(self, folder: str) -> Path:
        digest = hashlib.sha256(f"{self.fingerprint}\0{folder}".encode("utf-8", "surrogatepass"))
        return self.folder / f"{digest.hexdigest()[:40]}.json"

    def _entries(self, folder: str) -> dict:
        entries = self._folders.get(folder)
        if entries is None:
            try:
                with open(self._file(folder), "rb") as handle:
                    entries = json.loads(handle.read())
                if not isinstance(entries, dict):
                    entries = {}
            except (OSError, ValueError):
                entries = {}
            self._folders[folder] = entries
        return entries

    def _context(self, display: str, settings) -> list:
        digest = self._settings.get(settings)
        if digest is None:
            # whether files are linked with their program changes the findings as settings do
            text = repr(settings) + (" whole-program" if program.enabled() else "")
            digest = self._settings[settings] = hashlib.sha256(text.encode()).hexdigest()[:32]
        return [digest, display]

    @staticmethod
    def _stamp(stat: os.stat_result) -> list:
        return [stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns, stat.st_ino]

    def lookup(self, path: Path, display: str, settings, stat: os.stat_result) -> Optional[List[Finding]]:
        folder, name = os.path.split(os.path.abspath(path))
        entry = self._entries(folder).get(name)
        try:
            if entry[:4] != self._stamp(stat) or entry[4:6] != self._context(display, settings):
                return None
            for other, stamp in entry[7] if len(entry) > 7 else ():  # the files it imports from
                try:
                    if self._stamp(os.stat(other)) != stamp:
                        return None
                except OSError:
                    return None
            return [_finding(item) for item in entry[6]]
        except (TypeError, ValueError, KeyError, AttributeError, IndexError):
            return None

    def remember(self, path: Path, display: str, settings, stat: os.stat_result, findings: List[Finding],
                 stat_time_ns: int, dependencies=()) -> None:
        """Remember ``findings`` for the file as ``stat`` (taken at ``stat_time_ns``, before the file was
        read for them) described it; ``dependencies``: the other files they were linted with, checked
        in the same way."""
        if stat.st_mtime_ns > stat_time_ns - self.RACY_SECONDS * 1e9:
            return
        others = []
        for other in dependencies:
            try:
                found = os.stat(other)
            except OSError:
                return
            if found.st_mtime_ns > stat_time_ns - self.RACY_SECONDS * 1e9:
                return
            others.append([str(other), self._stamp(found)])
        folder, name = os.path.split(os.path.abspath(path))
        entry = self._stamp(stat) + self._context(display, settings) + [[as_dict(f) for f in findings]]
        if others:
            entry.append(others)
        entries = self._entries(folder)
        old = entries.get(name)
        if not isinstance(old, list) or old[:6] != entry[:6] or old[7:] != entry[7:]:  # same: same findings
            entries[name] = entry
            self._changed.add(folder)

    def save(self) -> None:
        """Write the indexes with new entries (concurrent runs: the last rename wins; any index is
        correct, since every entry is checked against the file's stat before use)."""
        for folder in sorted(self._changed):
            _write_atomically(self._file(folder), json.dumps(self._folders[folder], separators=(",", ":")))
        self._changed.clear()


def _write_atomically(entry: Path, data: str) -> None:
    """``data`` into ``entry`` through a temporary file renamed into place; any OSError: not written."""
    import tempfile  # here: a re-run that writes nothing need not import it (with shutil and random)

    try:
        entry.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=entry.parent, prefix=".tmp-", suffix=".json")
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                out.write(data)
            os.replace(temporary, entry)
        except BaseException:
            try:
                os.unlink(temporary)
            except OSError:
                pass
            raise
    except OSError:
        pass  # a cache that cannot be written is no cache, not an error


def _position(data) -> Position:
    return Position(int(data["line"]), int(data["column"]))


def _optional_position(data) -> Optional[Position]:
    return None if data is None else _position(data)


def _finding(data: dict) -> Finding:
    evidence = Evidence(**data["evidence"])
    site = data.get("site")
    if site is not None:
        site = InplaceSite(
            form=site["form"],
            start=_position(site["start"]),
            end=_position(site["end"]),
            target_text=site["target_text"],
            kwarg_start=_optional_position(site["kwarg_start"]),
            kwarg_end=_optional_position(site["kwarg_end"]),
            **{k: tuple(v) if isinstance(v, list) else v for k, v in site.items()
               if k not in ("form", "start", "end", "target_text", "kwarg_start", "kwarg_end")},
        )
    fix = data.get("fix")
    if fix is not None:
        fix = Fix(
            title=fix["title"],
            applicability=fix["applicability"],
            edits=tuple(
                Edit(_position(e["start"]), _position(e["end"]), e["replacement"]) for e in fix["edits"]
            ),
        )
    return Finding(
        code=data["code"],
        name=data["name"],
        message=data["message"],
        path=data["path"],
        start=_position(data["start"]),
        end=_position(data["end"]),
        evidence=evidence,
        site=site,
        fix=fix,
        related=tuple(Related(r["path"], _position(r["start"]), _position(r["end"]), r["message"])
                      for r in data.get("related", ())),
    )
