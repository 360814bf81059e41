"""``# noqa`` comments, read exactly as flake8 reads them.

flake8 applies ``# noqa`` itself for the plugin; the CLI and the LSP server apply it here, with the same
regular expression (``flake8.defaults.NOQA_INLINE_REGEXP``), the same code matching (a listed code or a
prefix of it) and the same line mapping (a comment at the end of a multi-line string covers every line of
that string). ``# flake8: noqa`` on a line of its own skips the whole file, as in flake8.
"""

from __future__ import annotations

import io
import re
import tokenize
from typing import Dict, Iterable, List, Optional, Sequence, Tuple, TypeVar

from inplace_lint.syntax.lines import split_lines

# Copied from flake8 (defaults.NOQA_INLINE_REGEXP) so that a comment means the same thing to both.
NOQA_INLINE_REGEXP = re.compile(
    r"# noqa(?::[\s]?(?P<codes>([A-Z]+[0-9]+(?:[,\s]+)?)+))?",
    re.IGNORECASE,
)
NOQA_FILE = re.compile(r"\s*# flake8[:=]\s*noqa", re.I)
_COMMA_SEPARATED_LIST_RE = re.compile(r"[,\s]")

T = TypeVar("T")


def parse_codes(codes: str) -> List[str]:
    """``"AGI001, AGI002"`` -> ``["AGI001", "AGI002"]`` (flake8's ``parse_comma_separated_list``)."""
    return [item.strip() for item in _COMMA_SEPARATED_LIST_RE.split(codes) if item.strip()]


def codes_in_comment(line: str) -> Optional[List[str]]:
    """None when ``line`` has no ``# noqa``; [] for a blanket ``# noqa``; else the listed codes."""
    match = NOQA_INLINE_REGEXP.search(line)
    if match is None:
        return None
    codes = match.group("codes")
    return [] if codes is None else parse_codes(codes)


def line_suppresses(line: str, code: str) -> bool:
    """Whether the ``# noqa`` text in ``line`` suppresses ``code`` (flake8's ``is_inline_ignored``)."""
    codes = codes_in_comment(line)
    if codes is None:
        return False
    if not codes:
        return True
    # flake8 compares case-sensitively: "# noqa: agi001" does not suppress AGI001 (nor does it in flake8).
    return code in codes or code.startswith(tuple(codes))


class NoqaMap:
    """Which text to search for ``# noqa`` for each line of one file."""

    def __init__(self, source: str):
        self.lines = split_lines(source)
        self.file_is_ignored = any(NOQA_FILE.match(line) for line in self.lines)
        self._groups = self._token_groups(source)

    def _token_groups(self, source: str) -> Dict[int, Tuple[int, int]]:
        """Map each line to the (first, last) line of the token run it belongs to, as flake8 does."""
        groups: Dict[int, Tuple[int, int]] = {}
        try:
            tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
        except (tokenize.TokenError, SyntaxError, ValueError):
            return groups  # flake8 then falls back to the physical line; so do we
        nowhere = len(self.lines) + 2
        first, last = nowhere, -1
        for tok in tokens:
            if tok.type in (tokenize.ENDMARKER, tokenize.DEDENT):
                continue
            first = min(first, tok.start[0])
            last = max(last, tok.end[0])
            if tok.type in (tokenize.NL, tokenize.NEWLINE):
                for line in range(first, last + 1):
                    groups[line] = (first, last)
                first, last = nowhere, -1
        return groups

    def text_for(self, line: int) -> str:
        """The text flake8 searches for a ``# noqa`` covering 1-based ``line``."""
        first, last = self._groups.get(line, (line, line))
        return "\n".join(self.lines[first - 1:last])

    def comment_line_for(self, line: int) -> int:
        """The line where a new ``# noqa`` comment covering ``line`` must go (end of a multi-line string)."""
        return self._groups.get(line, (line, line))[1]

    def suppresses(self, line: int, code: str) -> bool:
        return self.file_is_ignored or line_suppresses(self.text_for(line), code)


def filter_suppressed(findings: Iterable[T], source: str, noqa_map: Optional[NoqaMap] = None) -> List[T]:
    """The findings that no ``# noqa`` comment suppresses (findings need ``.line`` and ``.code``)."""
    findings = list(findings)
    if not findings or ("noqa" not in source.lower()):
        return findings
    noqa_map = noqa_map or NoqaMap(source)
    return [f for f in findings if not noqa_map.suppresses(f.line, f.code)]  # type: ignore[attr-defined]


def add_code_to_line(line: str, code: str) -> Optional[str]:
    """``line`` with ``code`` added to its ``# noqa`` comment (or a new one); None if already suppressed.

    ``x  # noqa: AGI002`` -> ``x  # noqa: AGI002, AGI001``; ``x  # note`` -> ``x  # note  # noqa: AGI001``.
    """
    match = NOQA_INLINE_REGEXP.search(line)
    if match is None:
        stripped = line.rstrip()
        return f"{stripped}  # noqa: {code}"
    codes = match.group("codes")
    if codes is None or line_suppresses(line, code):
        return None
    listed = parse_codes(codes)
    start, end = match.span("codes")
    # Keep whatever trailed the code list (the regex swallows a trailing separator) after it.
    trailing = codes[len(codes.rstrip(", \t")):]
    return line[:start] + ", ".join(listed + [code]) + trailing + line[end:]


def noqa_spans(line: str) -> Sequence[Tuple[int, int, List[str]]]:
    """(start, end, codes) of each ``# noqa`` comment in ``line`` (for hover)."""
    return [
        (m.start(), m.end(), parse_codes(m.group("codes")) if m.group("codes") else [])
        for m in NOQA_INLINE_REGEXP.finditer(line)
    ]
