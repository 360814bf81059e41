"""Applying the fixes findings carry, and the lint pipeline the CLI and the LSP server share.

:func:`lint_text` is what every non-flake8 adapter calls: the engine, then per-file-ignores, then
``# noqa``. :func:`fix_text` applies fixes in rounds: in each round the chosen fixes (safe ones, plus
unsafe ones when asked) whose edits do not overlap are applied bottom-up, then the text is linted again;
it stops when no fix applies, when a text repeats, or after ``max_rounds``. A finding on a line whose
``# noqa`` covers its code is never reported, so it is never fixed either. A round whose result no longer
parses is undone (the fix was wrong; the message says so).
"""

from __future__ import annotations

import bisect
from typing import Callable, List, Optional, Sequence, Tuple

from inplace_lint.ftypes import Edit, Finding, Fix, LintOptions
from inplace_lint.noqa import LINE_BREAK, filter_suppressed
from inplace_lint.records import Record

MAX_ROUNDS = 10

Linter = Callable[[str, str, LintOptions], List[Finding]]


def _engine_lint(source: str, path: str, options: LintOptions) -> List[Finding]:
    from inplace_lint.engine import lint_source

    return lint_source(source, path, options)


def lint_text(source: str, path: str, settings, linter: Optional[Linter] = None) -> List[Finding]:
    """Findings for ``source`` under ``settings`` (a :class:`inplace_lint.config.Settings`).

    Raises :class:`inplace_lint.engine.LintError` when the text cannot be linted.
    """
    findings = (linter or _engine_lint)(source, path, settings.lint_options())
    ignored = settings.ignored_codes_for(path) if settings.per_file_ignores else ()
    if ignored:
        findings = [f for f in findings if not f.code.startswith(tuple(ignored))]
    return filter_suppressed(findings, source)


class _Offsets:
    """Converts (1-based line, 0-based code-point column) positions to offsets into the text."""

    def __init__(self, source: str):
        self.source = source
        self.starts = [0]
        for match in LINE_BREAK.finditer(source):
            self.starts.append(match.end())

    def line_length(self, line: int) -> int:
        start = self.starts[line - 1]
        end = self.starts[line] if line < len(self.starts) else len(self.source)
        text = self.source[start:end]
        return len(text.rstrip("\r\n")) if line < len(self.starts) else len(text)

    def offset(self, line: int, column: int) -> Optional[int]:
        """The offset, or None when the position is outside the text (the end of a line is inside)."""
        if line < 1 or column < 0:
            return None
        if line == len(self.starts) + 1 and column == 0:
            return len(self.source)  # just past the last line
        if line > len(self.starts) or column > self.line_length(line):
            return None
        return self.starts[line - 1] + column

    def line_of(self, offset: int) -> int:
        return bisect.bisect_right(self.starts, offset)


def edit_spans(source: str, edits: Sequence[Edit]) -> Optional[List[Tuple[int, int, str]]]:
    """(start offset, end offset, replacement) per edit, or None if any edit lies outside the text."""
    offsets = _Offsets(source)
    spans = []
    for edit in edits:
        start = offsets.offset(edit.start.line, edit.start.column)
        end = offsets.offset(edit.end.line, edit.end.column)
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
    linter: Optional[Linter] = None,
    max_rounds: int = MAX_ROUNDS,
    findings: Optional[List[Finding]] = None,
) -> FixResult:
    """Apply fixes to ``source`` until none applies (bounded); see the module docstring.

    ``findings`` (the findings of ``source``, if already known) saves the first lint. Raises
    :class:`inplace_lint.engine.LintError` only if ``source`` itself cannot be linted.
    """
    from inplace_lint.engine import LintError

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
