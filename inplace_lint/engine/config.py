"""Configuration: ``[tool.inplace-lint]`` in pyproject.toml or ``[inplace-lint]`` in setup.cfg.

The file is discovered from the linted path upward: the first pyproject.toml (or, in the same folder,
setup.cfg) that has our section wins. Keys::

    select = ["AGI"]                        # codes or prefixes to report
    ignore = []                             # codes or prefixes to drop (the longer match wins)
    per-file-ignores = {"tests/*" = ["AGI001"]}
    exclude = [...]                         # replaces the default exclusions
    extend-exclude = ["tests/fixtures"]     # adds to them
    assume-params-are-tensors = true

Unknown keys and unknown codes are errors (:class:`ConfigError`, one message). Globs are matched against
the path relative to the folder holding the config file and against the file's base name; an excluded
folder excludes everything under it. CLI flags override the file (see ``Settings.override``).
"""

from __future__ import annotations

import fnmatch
import functools
import os
import re
import sys
from pathlib import Path
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple

from inplace_lint.model.findings import LintOptions
from inplace_lint.model.records import FrozenRecord, factory
from inplace_lint.engine.gitignore import GitIgnores
from inplace_lint.rules import RULES

SECTION_TOML = "inplace-lint"  # [tool.inplace-lint]
SECTION_CFG = "inplace-lint"  # [inplace-lint]

DEFAULT_EXCLUDE: Tuple[str, ...] = (
    ".bzr",
    ".direnv",
    ".eggs",
    ".git",
    ".hg",
    ".inplace-lint-cache",
    ".mypy_cache",
    ".nox",
    ".pytest_cache",
    ".ruff_cache",
    ".svn",
    ".tox",
    ".venv",
    "__pycache__",
    "__pypackages__",
    "_build",
    "build",
    "dist",
    "node_modules",
    "site-packages",
    "venv",
)

KNOWN_KEYS = (
    "select",
    "ignore",
    "per-file-ignores",
    "exclude",
    "extend-exclude",
    "assume-params-are-tensors",
    "whole-program",
)
_CODE_SHAPE = re.compile(r"^[A-Z]+[0-9]*$")


class ConfigError(Exception):
    """A configuration problem; ``str(error)`` is the one message to show."""


class UnreadableFolder(ConfigError):
    """A folder whose config files cannot be looked for (it can be listed but not entered)."""

    def __init__(self, message: str, cause: OSError):
        super().__init__(message)
        self.cause = cause


class Settings(FrozenRecord):
    """Everything an adapter needs to lint one file the way the user configured it."""

    select: Tuple[str, ...] = ("AGI",)
    ignore: Tuple[str, ...] = ()
    per_file_ignores: Tuple[Tuple[str, Tuple[str, ...]], ...] = ()
    exclude: Tuple[str, ...] = DEFAULT_EXCLUDE
    extend_exclude: Tuple[str, ...] = ()
    assume_params_are_tensors: bool = False
    whole_program: bool = False
    # The folder globs are relative to (the config file's folder, else the working directory).
    root: Path = factory(Path.cwd)
    config_file: Optional[Path] = None

    def lint_options(self) -> LintOptions:
        return LintOptions(
            assume_params_are_tensors=self.assume_params_are_tensors,
            whole_program=self.whole_program,
            select=tuple(self.select),
            ignore=tuple(self.ignore),
        )

    def override(self, **changes: Any) -> "Settings":
        """A copy with the given fields replaced; ``None`` values are left as they were."""
        changes = {k: v for k, v in changes.items() if v is not None}
        for key in ("select", "ignore"):
            if key in changes:
                changes[key] = tuple(validate_codes(changes[key], f"--{key}"))
        return self.replace(**changes)

    def ignored_codes_for(self, path: str) -> Tuple[str, ...]:
        """Codes that per-file-ignores drops for ``path``."""
        codes: List[str] = []
        for pattern, pattern_codes in self.per_file_ignores:
            if _matches(pattern, Path(path), self.root, match_parents=True):
                codes.extend(pattern_codes)
        return tuple(codes)

    def is_excluded(self, path: Path, check_parents: bool = False) -> bool:
        """Whether an exclude pattern matches ``path`` (with ``check_parents``, or a parent of it)."""
        patterns = tuple(self.exclude) + tuple(self.extend_exclude)
        if not patterns:
            return False
        candidates = _candidates(path, self.root, check_parents)  # once per path, not once per pattern
        return _matcher(patterns).matches(candidates)


def _relative_text(path: Path, root: Path) -> Optional[str]:
    """``path`` relative to ``root`` as text (``"."`` for ``root`` itself), or None outside it: what
    ``Path.relative_to`` answers, without building Paths (a file discovery asks about every file)."""
    text = os.path.abspath(path)
    base = os.path.abspath(root)
    folded, folded_base = os.path.normcase(text), os.path.normcase(base)
    if folded == folded_base:
        return "."
    prefix = folded_base if folded_base.endswith(os.sep) else folded_base + os.sep  # "/" ends with it
    return text[len(prefix):] if folded.startswith(prefix) else None


def _matches(pattern: str, path: Path, root: Path, match_parents: bool = False) -> bool:
    """fnmatch ``pattern`` against ``path`` relative to ``root`` and against its base name.

    With ``match_parents``, a match on any parent folder (below ``root``) counts too.
    """
    return _matches_candidates(pattern, _candidates(path, root, match_parents))


def _candidates(path: Path, root: Path, match_parents: bool) -> List[Tuple[str, str, Any]]:
    """What a pattern is matched against: ``path`` relative to ``root`` (or absolute, outside it) and,
    with ``match_parents``, each of its parent folders, as (posix text, base name, path)."""
    relative = _relative_text(path, root)
    text = relative if relative is not None else os.path.abspath(path)
    if not match_parents:  # the common ask (a file discovery asks about every folder and file): no Path
        posix = text.replace(os.sep, "/") if os.sep != "/" else text
        return [(posix, "" if text == "." else os.path.basename(text), text)]
    base = Path(text)
    candidates = [base] + [parent for parent in base.parents if str(parent) not in ("", ".", "/")]
    return [(candidate.as_posix(), candidate.name, candidate) for candidate in candidates]


def _matches_candidates(pattern: str, candidates: List[Tuple[str, str, Any]]) -> bool:
    return _matcher((pattern,)).matches(candidates)


def _normal_pattern(pattern: str) -> str:
    pattern = pattern.strip()
    if pattern.startswith("./"):
        pattern = pattern[2:]
    return pattern.rstrip("/") or pattern


class _Matcher:
    """Several fnmatch patterns as one regular expression: a file discovery asks about every folder and
    file under the tree, and matching each of them pattern by pattern was most of a cached re-run."""

    def __init__(self, patterns: Tuple[str, ...]):
        normal = [_normal_pattern(p) for p in patterns]
        self.relative = _any_of(normal)  # against the relative (or absolute) text and the base name
        self.absolute = _any_of([p for p in normal if os.path.isabs(p)])  # also against the absolute path

    def matches(self, candidates: List[Tuple[str, str, Any]]) -> bool:
        relative, absolute, normcase = self.relative, self.absolute, os.path.normcase
        for text, name, candidate in candidates:
            if relative is not None and (relative.match(normcase(text)) or relative.match(normcase(name))):
                return True
            if absolute is not None and absolute.match(normcase(os.path.abspath(candidate))):
                return True
        return False


def _any_of(patterns: List[str]) -> Optional["re.Pattern[str]"]:
    """``fnmatch.fnmatch(text, p)`` for any ``p``: one match of ``normcase(text)``, as fnmatch does it."""
    if not patterns:
        return None
    return re.compile("|".join(fnmatch.translate(os.path.normcase(p)) for p in patterns))


@functools.lru_cache(maxsize=64)
def _matcher(patterns: Tuple[str, ...]) -> _Matcher:
    return _Matcher(patterns)


def known_codes() -> Tuple[str, ...]:
    return tuple(sorted(RULES))


def validate_codes(codes: Iterable[str], where: str) -> List[str]:
    """Each code must be a known code or a prefix of one (``AGI``, ``AGI00``, ``AGI001``)."""
    known = known_codes()
    result = []
    for code in codes:
        code = code.strip()
        if not code:
            continue
        if not _CODE_SHAPE.match(code) or not any(k.startswith(code) for k in known):
            raise ConfigError(
                f"unknown rule code {code!r} in {where} (known codes: {', '.join(known)}; "
                f"a prefix such as 'AGI' selects several)"
            )
        result.append(code)
    return result


def _as_list(value: Any, key: str, where: str) -> List[str]:
    if isinstance(value, str):
        return [item for item in re.split(r"[,\s]+", value) if item]
    if isinstance(value, (list, tuple)) and all(isinstance(item, str) for item in value):
        return list(value)
    raise ConfigError(f"{where}: '{key}' must be a list of strings, not {value!r}")


def _as_patterns(value: Any, key: str, where: str) -> List[str]:
    if isinstance(value, str):  # setup.cfg: comma- or newline-separated
        return [item.strip() for item in re.split(r"[,\n]", value) if item.strip()]
    return _as_list(value, key, where)


def _as_bool(value: Any, key: str, where: str) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str):
        lowered = value.strip().lower()
        if lowered in ("1", "true", "yes", "on"):
            return True
        if lowered in ("0", "false", "no", "off"):
            return False
    raise ConfigError(f"{where}: '{key}' must be true or false, not {value!r}")


def _per_file_ignores(value: Any, where: str) -> List[Tuple[str, Tuple[str, ...]]]:
    entries: List[Tuple[str, Tuple[str, ...]]] = []
    if isinstance(value, dict):  # TOML table: glob = ["AGI001"] or glob = "AGI001,AGI002"
        for pattern, codes in value.items():
            entries.append((pattern, tuple(validate_codes(_as_list(codes, pattern, where), where))))
        return entries
    if isinstance(value, str):  # setup.cfg, flake8's form: one "glob[,glob]: CODE[,CODE]" per line
        for line in value.splitlines():
            line = line.strip()
            if not line:
                continue
            if ":" not in line:
                raise ConfigError(
                    f"{where}: per-file-ignores entry {line!r} must look like 'glob: CODE,CODE'"
                )
            patterns, _, codes = line.rpartition(":")
            parsed = tuple(validate_codes(_as_list(codes, "per-file-ignores", where), where))
            for pattern in patterns.split(","):
                if pattern.strip():
                    entries.append((pattern.strip(), parsed))
        return entries
    raise ConfigError(f"{where}: 'per-file-ignores' must map globs to codes, not {value!r}")


def settings_from_mapping(
    data: Dict[str, Any], where: str, root: Path, config_file: Optional[Path]
) -> Settings:
    """Validate one config section (already read from TOML or INI) into :class:`Settings`."""
    normalized: Dict[str, Any] = {}
    for key, value in data.items():
        name = key.replace("_", "-")
        if name not in KNOWN_KEYS:
            raise ConfigError(f"{where}: unknown key {key!r} (known keys: {', '.join(KNOWN_KEYS)})")
        normalized[name] = value
    kwargs: Dict[str, Any] = {"root": root, "config_file": config_file}
    if "select" in normalized:
        kwargs["select"] = tuple(
            validate_codes(_as_list(normalized["select"], "select", where), f"{where} select")
        )
    if "ignore" in normalized:
        kwargs["ignore"] = tuple(
            validate_codes(_as_list(normalized["ignore"], "ignore", where), f"{where} ignore")
        )
    if "per-file-ignores" in normalized:
        kwargs["per_file_ignores"] = tuple(_per_file_ignores(normalized["per-file-ignores"], where))
    if "exclude" in normalized:
        kwargs["exclude"] = tuple(_as_patterns(normalized["exclude"], "exclude", where))
    if "extend-exclude" in normalized:
        kwargs["extend_exclude"] = tuple(_as_patterns(normalized["extend-exclude"], "extend-exclude", where))
    if "assume-params-are-tensors" in normalized:
        kwargs["assume_params_are_tensors"] = _as_bool(
            normalized["assume-params-are-tensors"], "assume-params-are-tensors", where
        )
    if "whole-program" in normalized:
        kwargs["whole_program"] = _as_bool(normalized["whole-program"], "whole-program", where)
    return Settings(**kwargs)


def _toml_loads():
    if sys.version_info >= (3, 11):
        import tomllib

        return tomllib.loads, tomllib.TOMLDecodeError
    try:
        import tomli  # type: ignore[import-not-found]
    except ImportError:
        return None, None
    return tomli.loads, tomli.TOMLDecodeError


# ``[tool.inplace-lint]`` (or a table under it), ``tool.inplace-lint.<key> =``, or, under a ``[tool]``
# table, ``inplace-lint = {...}`` / ``inplace-lint.<key> =``: any way TOML can spell our table (keys may
# be quoted). Naming the package (the project's own name, a dependency, a script) is none of these.
_OUR_TABLE_HEADER = re.compile(
    r"""(?m)^[ \t]*(?:\[[ \t]*tool|tool)[ \t]*\.[ \t]*["']?inplace-lint["']?[ \t]*(?:[\].=]|$)""")
_TOOL_TABLE = re.compile(r"""(?m)^[ \t]*\[[ \t]*["']?tool["']?[ \t]*\]""")
_OUR_KEY = re.compile(r"""(?m)^[ \t]*["']?inplace-lint["']?[ \t]*[.=]""")


def _may_hold_our_table(text: str) -> bool:
    return bool(_OUR_TABLE_HEADER.search(text) or (_TOOL_TABLE.search(text) and _OUR_KEY.search(text)))


_warned_no_toml = False


def _read_toml_section(path: Path) -> Optional[Dict[str, Any]]:
    """The ``[tool.inplace-lint]`` table of ``path``, or None when it has none."""
    global _warned_no_toml
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise ConfigError(f"{path}: cannot read: {error}") from None
    if not _may_hold_our_table(text):
        # cheap: most pyproject.toml files have nothing of ours (naming the package, as a project's own
        # name or a dependency, is no table)
        return None
    loads, decode_error = _toml_loads()
    if loads is None:
        if not _warned_no_toml:
            _warned_no_toml = True
            print(
                f"inplace-lint: {path}: skipping [tool.{SECTION_TOML}]: reading TOML on Python "
                f"{sys.version_info.major}.{sys.version_info.minor} needs the 'tomli' package",
                file=sys.stderr,
            )
        return None
    try:
        data = loads(text)
    except decode_error as error:  # type: ignore[misc]
        raise ConfigError(f"{path}: invalid TOML: {error}") from None
    section = data.get("tool", {}).get(SECTION_TOML)
    if section is None:
        return None
    if not isinstance(section, dict):
        raise ConfigError(f"{path}: [tool.{SECTION_TOML}] must be a table")
    return section


def _read_cfg_section(path: Path) -> Optional[Dict[str, Any]]:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise ConfigError(f"{path}: cannot read: {error}") from None
    if SECTION_CFG not in text:
        return None
    import configparser  # here: most setup.cfg files have nothing of ours (a cached re-run reads several)

    parser = configparser.RawConfigParser()
    try:
        parser.read_string(text, source=str(path))
    except configparser.Error as error:
        raise ConfigError(f"{path}: invalid INI: {error}".replace("\n", " ")) from None
    if not parser.has_section(SECTION_CFG):
        return None
    return dict(parser.items(SECTION_CFG))


def read_config_file(path: Path) -> Optional[Dict[str, Any]]:
    """Our section of ``path`` (TOML for ``*.toml``, INI otherwise), or None if it has none."""
    if path.suffix == ".toml":
        return _read_toml_section(path)
    return _read_cfg_section(path)


def load_settings(path: Path) -> Settings:
    """Settings from an explicitly named config file (``--config PATH``)."""
    path = Path(path)
    if not path.is_file():
        raise ConfigError(f"config file {str(path)!r} does not exist")
    section = read_config_file(path)
    if section is None:
        expected = f"[tool.{SECTION_TOML}]" if path.suffix == ".toml" else f"[{SECTION_CFG}]"
        raise ConfigError(f"{path}: has no {expected} section")
    where = str(path)
    return settings_from_mapping(section, where, path.resolve().parent, path)


def find_config_file(start: Path, known: Optional[Dict[Path, Optional[Path]]] = None) -> Optional[Path]:
    """The first pyproject.toml / setup.cfg with our section, from ``start`` (a folder) upward.

    ``known``: folder -> its answer, for folders asked before; consulted on the way up and filled in
    for every folder walked (the folders of one tree share their parents' answer)."""
    directory = Path(os.path.abspath(start))
    walked = []
    found: Optional[Path] = None
    for folder in (directory, *directory.parents):
        if known is not None and folder in known:
            found = known[folder]
            break
        walked.append(folder)
        found = _config_in(folder)
        if found is not None:
            break
    if known is not None:
        for folder in walked:
            known[folder] = found
    return found


def _config_in(folder: Path) -> Optional[Path]:
    for name in ("pyproject.toml", "setup.cfg"):
        candidate = folder / name
        try:
            is_file = candidate.is_file()
        except OSError as error:  # a folder that can be listed but not entered (no search permission)
            raise UnreadableFolder(f"cannot look for a config file in {str(folder)!r}: "
                                   f"{error.strerror or error}", error) from None
        if is_file and read_config_file(candidate) is not None:
            return candidate
    return None


class SettingsResolver:
    """Finds the settings that apply to each linted path, caching per folder and per config file.

    ``explicit`` (``--config PATH``) applies to every path. ``overrides`` (CLI flags) are applied on top.
    A config file is re-read when its modification time or size changes (the LSP server is long-lived).
    """

    def __init__(self, explicit: Optional[Path] = None, overrides: Optional[Dict[str, Any]] = None):
        self.explicit = Path(explicit) if explicit else None
        self.overrides = dict(overrides or {})
        self._by_folder: Dict[Path, Optional[Path]] = {}
        self._by_file: Dict[Tuple[Path, int, int], Settings] = {}
        self._default: Optional[Settings] = None

    def _settings_for_file(self, path: Optional[Path]) -> Settings:
        if path is None:
            if self._default is None:
                self._default = Settings().override(**self.overrides)
            return self._default
        try:
            stat = path.stat()
        except OSError as error:
            raise ConfigError(f"cannot read config file {str(path)!r}: {error.strerror or error}") from None
        key = (path, stat.st_mtime_ns, stat.st_size)
        cached = self._by_file.get(key)
        if cached is None:
            cached = load_settings(path).override(**self.overrides)
            self._by_file[key] = cached
        return cached

    def for_path(self, path: Path, cache_folders: bool = True) -> Settings:
        """Settings for a file or folder being linted (raises :class:`ConfigError`)."""
        if self.explicit is not None:
            return self._settings_for_file(self.explicit)
        path = Path(os.path.abspath(path))
        folder = path if path.is_dir() else path.parent
        config = find_config_file(folder, self._by_folder if cache_folders else None)
        return self._settings_for_file(config)


def iter_python_files(
    paths: Sequence[Path], resolver: SettingsResolver, force_exclude: bool = False,
    respect_gitignore: bool = True,
    errors: Optional[List[Tuple[str, str]]] = None,
) -> Iterable[Tuple[Path, Settings]]:
    """(file, its settings) for each .py file under ``paths``, each once, folders in sorted order.

    Inside a folder, excluded folders and files are skipped. A path named explicitly is linted even when
    an exclude pattern matches it (as Ruff does), unless ``force_exclude`` (what the pre-commit hooks use,
    since pre-commit names every file explicitly). With ``respect_gitignore``, what the walked folders'
    ``.gitignore`` files ignore is skipped too (see :mod:`inplace_lint.engine.gitignore`).

    ``errors``: (path, message) is appended for each folder inside ``paths`` that cannot be read (it is
    skipped, and its files are not linted); without it such folders are skipped silently.
    """

    def unreadable(path: str, error: OSError) -> None:
        if errors is not None:
            errors.append((path, f"cannot read the folder: {error.strerror or error}; its files were not checked"))

    seen = set()
    for given in paths:
        try:
            settings = resolver.for_path(given)
        except UnreadableFolder as error:
            if errors is None:
                raise
            unreadable(str(given), error.cause)
            continue
        if force_exclude and settings.is_excluded(given, check_parents=True):
            continue
        if not given.is_dir():
            key = os.path.abspath(given)
            if key not in seen:
                seen.add(key)
                yield given, settings
            continue
        ignores = GitIgnores()
        for root, dirs, files in os.walk(given, onerror=lambda error: unreadable(error.filename, error)):
            root_path = Path(root)
            if root_path == given:
                settings = resolver.for_path(root_path)
            else:
                try:
                    settings = resolver.for_path(root_path)
                except UnreadableFolder as error:  # listed, but cannot be entered
                    unreadable(root, error.cause)
                    dirs[:] = []
                    continue
            if respect_gitignore:
                ignores.enter(root)
            dirs[:] = sorted(
                d for d in dirs
                if not settings.is_excluded(root_path / d)
                and not ignores.ignores(os.path.join(root, d), True)
            )
            for name in sorted(files):
                if not name.endswith(".py"):
                    continue
                file_path = root_path / name
                try:
                    regular = file_path.is_file()
                except OSError:
                    regular = True  # the file's own check reports why it cannot be read
                if settings.is_excluded(file_path) or not regular:
                    continue  # excluded, or not a regular file (a FIFO named *.py would block reading)
                if ignores.ignores(os.path.join(root, name), False):
                    continue
                key = os.path.abspath(file_path)
                if key not in seen:
                    seen.add(key)
                    yield file_path, settings
