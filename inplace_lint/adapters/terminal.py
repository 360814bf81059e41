"""What a person at a terminal reads: the ``full`` format, color, the summary lines, ``--show-fixes``,
and the progress line of a long run.

The ``full`` format is Ruff's shape, one block per finding::

    u.py:5:5: AGI001 [*] 'mul_()' modifies 'y' in place, but 'torch.sigmoid(x @ w)' on line 4 saved ...
      |
    4 |     y = torch.sigmoid(x @ w)
    5 |     y.mul_(2)
      |     ^^^^^^^^^ modified in place
    6 |     return y
      |
     ::: u.py:4:9: saved for backward
      |
    4 |     y = torch.sigmoid(x @ w)
      |         ^ 'torch.sigmoid(x @ w)' saved 'y' here for backward
      |
      = help: Write 'y = y.mul(2)'

When the same line saves and modifies (``b *= b``), both labels go under that line in one snippet.

``[*]`` marks a finding ``--fix`` would fix (with ``--unsafe-fixes``, unsafe fixes too). Columns are
1-based, as in every other format.

Color (``--color auto|always|never``): ``always`` and ``never`` are final; ``auto`` is off when
``NO_COLOR`` is set and not empty, else on when ``FORCE_COLOR`` is set and not empty, else on when the
stream is a terminal (https://no-color.org, https://force-color.org).
"""

from __future__ import annotations

import os
import sys
import time
from collections import Counter
from typing import Callable, Dict, List, Optional, Sequence

from inplace_lint.model.findings import Finding
from inplace_lint.syntax.lines import lines_with_breaks

COLOR_CHOICES = ("auto", "always", "never")

_RESET = "\033[0m"
_STYLES = {
    "path": "\033[1m",  # bold
    "code": "\033[1;31m",  # bold red
    "fixable": "\033[36m",  # cyan
    "gutter": "\033[1;34m",  # bold blue
    "caret": "\033[1;31m",
    "note_caret": "\033[1;34m",
    "help": "\033[1;36m",  # bold cyan
}


def use_color(choice: str, stream, environ=None) -> bool:
    """Whether to color output written to ``stream`` (see the module docstring)."""
    environ = os.environ if environ is None else environ
    if choice == "always":
        return True
    if choice == "never":
        return False
    if environ.get("NO_COLOR"):
        return False
    if environ.get("FORCE_COLOR"):
        return True
    return is_terminal(stream)


def is_terminal(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError, OSError):
        return False


class Painter:
    def __init__(self, color: bool) -> None:
        self.color = color

    def __call__(self, style: str, text: str) -> str:
        return f"{_STYLES[style]}{text}{_RESET}" if self.color and text else text


def _fixable(finding: Finding, unsafe: bool) -> bool:
    fix = finding.fix
    return fix is not None and bool(fix.edits) and (fix.applicability == "safe" or unsafe)


def _one_line(text: str) -> str:
    return " ".join(text.split()) if "\n" in text or "\r" in text else text


def _expand_tabs(line: str, column: int):
    """The line with tabs expanded, and where code-point ``column`` lands in it (carets line up)."""
    before = line[:column].expandtabs(8)
    return line.expandtabs(8), len(before)


class _Snippet:
    def __init__(self, lines: List[str], paint: Painter, width: int) -> None:
        self.lines = lines
        self.paint = paint
        self.width = width

    def gutter(self, number: Optional[int] = None) -> str:
        label = str(number) if number is not None else ""
        return self.paint("gutter", f"{label:>{self.width}} |")

    def source(self, number: int) -> str:
        text = self.lines[number - 1].rstrip("\r\n") if 0 < number <= len(self.lines) else ""
        return f"{self.gutter(number)} {text}".rstrip() + "\n"

    def carets(self, number: int, start: int, end: Optional[int], label: str, style: str) -> str:
        text = self.lines[number - 1].rstrip("\r\n") if 0 < number <= len(self.lines) else ""
        expanded, column = _expand_tabs(text, start)
        if end is None or end <= start:
            length = 1
        else:
            length = max(1, _expand_tabs(text, end)[1] - column)
            length = min(length, max(1, len(expanded) - column))
        marks = self.paint(style, "^" * length + (f" {label}" if label else ""))
        return f"{self.gutter()} {' ' * column}{marks}\n"


def format_full(
    findings: Sequence[Finding],
    source_of: Callable[[str], Optional[str]],
    color: bool = False,
    unsafe: bool = False,
    context: int = 1,
) -> str:
    """The findings in the ``full`` format; ``source_of(path)`` gives a file's text (None: no snippet)."""
    paint = Painter(color)
    texts: Dict[str, Optional[List[str]]] = {}
    blocks = []
    for f in findings:
        if f.path not in texts:
            text = source_of(f.path)
            texts[f.path] = lines_with_breaks(text) if text is not None else None
        lines = texts[f.path]
        marker = f" {paint('fixable', '[*]')}" if _fixable(f, unsafe) else ""
        head = (
            f"{paint('path', f'{f.path}:{f.start.line}:{f.start.column + 1}:')} "
            f"{paint('code', f.code)}{marker} {_one_line(f.message)}\n"
        )
        block = [head]
        evidence = f.evidence
        last = max(f.end.line, f.start.line)
        saving = evidence.saving_line
        width = len(str(max(last + context, saving or 0, evidence.grad_source_line or 0)))
        if lines is not None:
            snippet = _Snippet(lines, paint, width)
            first_shown = max(1, f.start.line - context)
            last_shown = min(len(lines), last + context)
            saver = evidence.saving_op or "an earlier operation"
            saved_label = f"'{saver}' saved '{evidence.tensor}' here for backward"
            column = evidence.saving_column or 0
            block.append(snippet.gutter() + "\n")
            for number in range(first_shown, last_shown + 1):
                block.append(snippet.source(number))
                if number == f.start.line:
                    end = f.end.column if f.end.line == f.start.line else None
                    block.append(snippet.carets(number, f.start.column, end, "modified in place", "caret"))
                    if saving == number:  # saved and modified on one line (b *= b): one snippet
                        block.append(snippet.carets(number, column, None, saved_label, "note_caret"))
            block.append(snippet.gutter() + "\n")
            if saving is not None and saving != f.start.line and 0 < saving <= len(lines):
                where = paint("gutter", f"{' ' * width}:::")
                block.append(f"{where} {f.path}:{saving}:{column + 1}: saved for backward\n")
                block.append(snippet.gutter() + "\n")
                block.append(snippet.source(saving))
                block.append(snippet.carets(saving, column, None, saved_label, "note_caret"))
                block.append(snippet.gutter() + "\n")
            grad_line = evidence.grad_source_line
            if grad_line is not None and grad_line not in (f.start.line, saving) and 0 < grad_line <= len(lines) \
                    and not evidence.saving_path:
                grad_column = evidence.grad_source_column or 0
                where = paint("gutter", f"{' ' * width}:::")
                block.append(f"{where} {f.path}:{grad_line}:{grad_column + 1}: requires grad\n")
                block.append(snippet.gutter() + "\n")
                block.append(snippet.source(grad_line))
                block.append(snippet.carets(grad_line, grad_column, None,
                                            f"'{evidence.grad_source}' requires grad", "note_caret"))
                block.append(snippet.gutter() + "\n")
        if f.fix is not None:
            unsafe_note = "" if f.fix.applicability == "safe" else " (unsafe fix: --fix --unsafe-fixes)"
            equals = paint("gutter", f"{' ' * width} =")
            block.append(f"{equals} {paint('help', 'help:')} {f.fix.title}{unsafe_note}\n")
        blocks.append("".join(block))
    return "\n".join(blocks)


# --- the summary after the findings --------------------------------------------------------------------


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def _count_fixes(findings: Sequence[Finding]):
    safe = sum(1 for f in findings if f.fix is not None and f.fix.edits and f.fix.applicability == "safe")
    unsafe = sum(1 for f in findings if f.fix is not None and f.fix.edits and f.fix.applicability != "safe")
    return safe, unsafe


def _hidden_unsafe(count: int, flag: str) -> str:
    return f"{_plural(count, 'unsafe fix')} available with {flag} --unsafe-fixes"


def check_summary(findings: Sequence[Finding], unsafe: bool) -> List[str]:
    """Ruff's summary: how many findings, how many ``--fix`` fixes, and the unsafe fixes it would not
    apply without ``--unsafe-fixes``."""
    if not findings:
        return ["All checks passed!"]
    safe, unsafe_count = _count_fixes(findings)
    lines = [f"Found {_plural(len(findings), 'finding')}."]
    if unsafe:
        if safe + unsafe_count:
            lines.append(f"[*] {safe + unsafe_count} fixable with --fix --unsafe-fixes.")
    elif safe and unsafe_count:
        lines.append(f"[*] {safe} fixable with --fix ({_hidden_unsafe(unsafe_count, '--fix')}).")
    elif safe:
        lines.append(f"[*] {safe} fixable with --fix.")
    elif unsafe_count:
        lines.append(f"No safe fixes ({_hidden_unsafe(unsafe_count, '--fix')}).")
    return lines


def fix_summary(fixed: int, remaining: Sequence[Finding], unsafe: bool, changed_files: int,
                diff: bool) -> str:
    """``Fixed 1 finding, 1 remaining.`` / ``Would fix ... in N files`` (``--diff``), naming the unsafe
    fixes that ``--unsafe-fixes`` would add."""
    if diff:
        text = f"Would fix {_plural(fixed, 'finding')} in {_plural(changed_files, 'file')}, "
    else:
        text = f"Fixed {_plural(fixed, 'finding')}, "
    text += f"{len(remaining)} remaining"
    _, unsafe_count = _count_fixes(remaining)
    if unsafe_count and not unsafe:
        text += f" ({_hidden_unsafe(unsafe_count, '--diff' if diff else '--fix')})"
    return text + "."


def format_fixes_available(findings: Sequence[Finding]) -> str:
    """``--show-fixes`` without ``--fix``: each finding's fix, safe or unsafe."""
    lines = []
    for f in findings:
        if f.fix is not None and f.fix.edits:
            lines.append(f"{f.path}:{f.start.line}:{f.start.column + 1}: {f.code} "
                         f"[{f.fix.applicability}] {f.fix.title}\n")
    if not lines:
        return "No fixes available.\n"
    return "Fixes available:\n" + "".join(lines)


def format_fixes_applied(fixed_codes: Dict[str, Counter], names: Dict[str, str], diff: bool = False) -> str:
    """``--show-fixes`` with ``--fix``/``--diff``: per file, how many findings of each code the fixes
    removed (Ruff's enumeration)."""
    total = sum(sum(counter.values()) for counter in fixed_codes.values())
    if not total:
        return "No findings would be fixed.\n" if diff else "No findings fixed.\n"
    lines = [f"{'Would fix' if diff else 'Fixed'} {_plural(total, 'finding')}:\n"]
    for path, counter in fixed_codes.items():
        if not sum(counter.values()):
            continue
        lines.append(f"- {path}:\n")
        for code, count in sorted(counter.items()):
            name = names.get(code)
            lines.append(f"    {count} × {code}" + (f" ({name})" if name else "") + "\n")
    return "".join(lines)


def fixed_codes(before: Sequence[Finding], after: Sequence[Finding]) -> Counter:
    """How many findings of each code the fixes removed."""
    removed = Counter(f.code for f in before)
    removed.subtract(Counter(f.code for f in after))
    return Counter({code: count for code, count in removed.items() if count > 0})


# --- progress ------------------------------------------------------------------------------------------


class Progress:
    """``Checked 120/362 files`` on one rewritten stderr line, for a run on a terminal that has taken
    longer than ``after`` seconds; cleared when done. A no-op when stderr is not a terminal."""

    def __init__(self, total: int, stream=None, after: float = 2.0, enabled: Optional[bool] = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.total = total
        self.enabled = is_terminal(self.stream) if enabled is None else enabled
        self.clock = clock
        self.start = clock()
        self.after = after
        self.done = 0
        self.shown = False
        self._last = -1.0

    def step(self, count: int = 1) -> None:
        self.done += count
        if not self.enabled:
            return
        now = self.clock()
        if now - self.start < self.after or now - self._last < 0.1:
            return
        self._last = now
        self.shown = True
        self.stream.write(f"\rChecked {self.done}/{self.total} files")
        self.stream.flush()

    def finish(self) -> None:
        if self.shown:
            self.stream.write("\r\033[K")
            self.stream.flush()
            self.shown = False
