"""Applying the fixes findings carry, and the lint pipeline the CLI and the LSP server share.

:func:`lint_text` is what every non-flake8 adapter calls: the engine, then per-file-ignores, then
``# noqa``. :func:`fix_text` applies fixes in rounds: in each round the chosen fixes (safe ones, plus
unsafe ones when asked) whose edits do not overlap are applied bottom-up, then the text is linted again;
it stops when no fix applies, when a text repeats, or after ``max_rounds``. A finding on a line whose
``# noqa`` covers its code is never reported, so it is never fixed either. A round whose result no longer
parses is undone (the fix was wrong; the message says so).
"""

from __future__ import annotations

import contextlib
import os
import signal
import stat
import threading
from typing import Callable, List, Optional, Sequence, Tuple

from inplace_lint.model.findings import Edit, Finding, Fix, LintError, LintOptions
from inplace_lint.syntax.lines import LineIndex
from inplace_lint.syntax.noqa import filter_suppressed
from inplace_lint.model.records import Record

MAX_ROUNDS = 10

Linter = Callable[[str, str, LintOptions], List[Finding]]


def lint_text(source: str, path: str, settings, linter: Linter) -> List[Finding]:
    """Findings for ``source`` under ``settings`` (a :class:`inplace_lint.engine.config.Settings`).

    Raises :class:`inplace_lint.LintError` when the text cannot be linted.
    """
    findings = linter(source, path, settings.lint_options())
    # a whole-program lint's findings in other files (inplace_lint.engine.program) are theirs to suppress
    foreign = [f for f in findings if f.path != path]
    if foreign:
        findings = [f for f in findings if f.path == path]
    ignored = settings.ignored_codes_for(path) if settings.per_file_ignores else ()
    if ignored:
        findings = [f for f in findings if not f.code.startswith(tuple(ignored))]
    return filter_suppressed(findings, source) + foreign


def edit_spans(source: str, edits: Sequence[Edit]) -> Optional[List[Tuple[int, int, str]]]:
    """(start offset, end offset, replacement) per edit, or None if any edit lies outside the text."""
    offsets = LineIndex(source)
    spans = []
    for edit in edits:
        start = offsets.checked_offset(edit.start.line, edit.start.column)
        end = offsets.checked_offset(edit.end.line, edit.end.column)
        if start is None or end is None or end < start:
            return None
        spans.append((start, end, edit.replacement))
    return sorted(spans, key=lambda span: (span[0], span[1]))


def _overlaps(a: Tuple[int, int, str], b: Tuple[int, int, str]) -> bool:
    # Two insertions at the same point conflict too: their order would be arbitrary.
    if a[0] == a[1] == b[0] == b[1]:
        return True
    return a[0] < b[1] and b[0] < a[1]


def apply_fixes(source: str, fixes: Sequence[Fix]) -> Tuple[str, int]:
    """Apply as many of ``fixes`` as do not overlap (earlier ones win); return (text, number applied).

    A fix is applied whole or not at all; its edits are applied bottom-up so offsets stay valid.
    """
    chosen: List[Tuple[int, int, str]] = []
    applied = 0
    for fix in fixes:
        spans = edit_spans(source, fix.edits)
        if not spans:
            continue
        if any(_overlaps(a, b) for a, b in zip(spans, spans[1:])):
            continue  # a fix that contradicts itself
        if any(_overlaps(span, taken) for span in spans for taken in chosen):
            continue
        chosen.extend(spans)
        applied += 1
    text = source
    for start, end, replacement in sorted(chosen, key=lambda span: (span[0], span[1]), reverse=True):
        text = text[:start] + replacement + text[end:]
    return text, applied


def fixable(finding: Finding, unsafe: bool) -> bool:
    fix = finding.fix
    return fix is not None and bool(fix.edits) and (fix.applicability == "safe" or unsafe)


class FixResult(Record):
    source: str  # the fixed text (the input when nothing applied)
    fixed: int  # fixes applied, over all rounds
    remaining: List[Finding]  # findings in the fixed text
    rounds: int = 0
    converged: bool = True  # False when max_rounds stopped the loop or a text repeated
    error: Optional[str] = None  # set when a round produced text that does not parse (it was undone)


def fix_text(
    source: str,
    path: str,
    settings,
    unsafe: bool = False,
    *,
    linter: Linter,
    max_rounds: int = MAX_ROUNDS,
    findings: Optional[List[Finding]] = None,
) -> FixResult:
    """Apply fixes to ``source`` until none applies (bounded); see the module docstring.

    ``findings`` (the findings of ``source``, if already known) saves the first lint. Raises
    :class:`inplace_lint.LintError` only if ``source`` itself cannot be linted.
    """
    current = source
    current_findings = findings if findings is not None else lint_text(source, path, settings, linter)
    seen = {current}
    result = FixResult(source=current, fixed=0, remaining=current_findings)
    for round_number in range(1, max_rounds + 1):
        candidates = [f.fix for f in current_findings if fixable(f, unsafe)]
        if not candidates:
            break
        text, applied = apply_fixes(current, candidates)  # type: ignore[arg-type]
        if not applied or text == current:
            break
        try:
            new_findings = lint_text(text, path, settings, linter)
        except LintError as error:
            result.error = (
                f"applying fixes produced code that cannot be linted ({error}); they were not applied"
            )
            break
        result.fixed += applied
        result.rounds = round_number
        current, current_findings = text, new_findings
        if current in seen:
            result.converged = False
            break
        seen.add(current)
    else:
        result.converged = not any(fixable(f, unsafe) for f in current_findings)
    result.source = current
    result.remaining = current_findings
    return result


# --- writing a fixed file -------------------------------------------------------------------------------

TEMP_SUFFIX = ".inplace-lint-tmp"


def _write_all(fd: int, data: bytes) -> None:
    """os.write until every byte is written (a short write is not an error)."""
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


@contextlib.contextmanager
def _signals_deferred():
    """Hold Ctrl-C (SIGINT) and SIGTERM until the block ends, then deliver them: a fixed file is either
    wholly replaced or left as it was, never half written. Only the main thread can set handlers; other
    threads (the LSP server's) never write files."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    received: List[int] = []
    previous = {}
    for number in (signal.SIGINT, signal.SIGTERM):
        handler = signal.getsignal(number)
        if handler is None:  # set outside Python: leave it alone
            continue
        previous[number] = handler
        signal.signal(number, lambda signum, frame: received.append(signum))
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
        for number in received:
            signal.raise_signal(number)


def _inside(target: str, roots: Sequence[str]) -> bool:
    for root in roots:
        root = os.path.realpath(root)
        if target == root or target.startswith(root.rstrip(os.sep) + os.sep):
            return True
    return False


def write_fixed(path: str, linted: bytes, fixed: bytes, roots: Optional[Sequence[str]] = None) -> Optional[str]:
    """Replace the content of the file at ``path`` with ``fixed``; None when done, else why not (one line).

    The new text goes to a temporary file in the same folder, is synced, gets the file's mode (and owner,
    where permitted), and is renamed over the file: a full disk, a crash or Ctrl-C leaves the file as it
    was. It is renamed only if the file still holds ``linted`` (the bytes the fixes were computed from):
    an edit made meanwhile is never overwritten. A symlink's target is written (the link stays a link),
    only when the target lies inside ``roots`` (the paths being linted), if given.
    """
    import tempfile  # only --fix needs it

    target = os.path.realpath(path)
    if roots is not None and target != os.path.abspath(path) and not _inside(target, roots):
        return f"not fixed: it links to {target}, outside the paths being linted"
    folder, name = os.path.split(target)
    temp = None
    try:
        with _signals_deferred():
            before = os.stat(target)
            fd, temp = tempfile.mkstemp(prefix=f".{name}.", suffix=TEMP_SUFFIX, dir=folder)
            try:
                _write_all(fd, fixed)
                os.fsync(fd)
                os.fchmod(fd, stat.S_IMODE(before.st_mode))
                if (before.st_uid, before.st_gid) != (os.geteuid(), os.getegid()):
                    try:
                        os.fchown(fd, before.st_uid, before.st_gid)
                    except OSError:
                        pass  # only root may give a file away; the content is what matters
            finally:
                os.close(fd)
            with open(target, "rb") as handle:
                current = handle.read()
            if current != linted:
                return "not fixed: the file changed while it was being fixed (run again)"
            os.replace(temp, target)
            temp = None
            _sync_folder(folder)
    except OSError as error:
        detail = error.strerror or str(error)
        if error.filename is not None and error.filename != target:
            detail += f" ({error.filename})"
        return f"cannot write the fixes: {detail}; the file is unchanged"
    finally:
        if temp is not None:
            try:
                os.unlink(temp)
            except OSError:
                pass
    return None


def _sync_folder(folder: str) -> None:
    """Make the rename itself durable (best effort: not every platform can open a folder)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
