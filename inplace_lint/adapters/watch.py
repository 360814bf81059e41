"""``inplace-lint --watch``: check, then check again whenever a Python file under the paths changes.

Changes are found by polling the files' size and modification time (no dependency, every platform);
each re-check goes through the findings cache, so only changed files are analysed again. Ctrl-C ends
watching with exit 0.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Callable, Dict, Optional, Tuple

POLL_SECONDS = 0.5

Snapshot = Dict[str, Tuple[int, int]]


def snapshot(args) -> Snapshot:
    """(size, mtime_ns) of every Python file the check would lint, and of the config files it reads."""
    from inplace_lint.engine.config import ConfigError, SettingsResolver, iter_python_files

    resolver = SettingsResolver(explicit=args.config)
    paths = [Path(raw) for raw in (args.paths or ["."]) if os.path.exists(raw)]
    state: Snapshot = {}
    try:
        found = iter_python_files(paths, resolver, respect_gitignore=args.respect_gitignore)
        files = [path for path, _ in found]
    except ConfigError:  # the check reports it; watch the config files for its repair
        files = []
    for folder in {str(path.parent) for path in files} | {"."}:
        files.extend(Path(folder) / name for name in ("pyproject.toml", "setup.cfg", ".gitignore"))
    for path in files:
        try:
            found = os.stat(path)
        except OSError:
            continue
        state[str(path)] = (found.st_size, found.st_mtime_ns)
    return state


def watch(
    args,
    check: Callable[[object], int],
    rounds: Optional[int] = None,
    sleep: Callable[[float], None] = time.sleep,
) -> int:
    """Run ``check(args)`` now and after every change; stop after ``rounds`` checks (None: until Ctrl-C)."""
    if "-" in args.paths:
        print("inplace-lint: error: --watch cannot read stdin ('-')", file=sys.stderr)
        return 2
    done = 0
    seen: Optional[Snapshot] = None
    try:
        while rounds is None or done < rounds:
            current = snapshot(args)
            if current != seen:
                if seen is not None and sys.stdout.isatty():
                    sys.stdout.write("\033[2J\033[H")  # a fresh screen for each report, as Ruff does
                print(f"[{time.strftime('%H:%M:%S')}] Checking {'again ' if seen is not None else ''}"
                      f"(changes are re-checked; Ctrl-C stops)", file=sys.stderr, flush=True)
                check(args)
                sys.stdout.flush()
                print("Watching for changes...", file=sys.stderr, flush=True)
                seen = current
                done += 1
                continue
            sleep(POLL_SECONDS)
    except KeyboardInterrupt:
        pass
    return 0
