"""Lines as Python counts them, for the whole package: the one line-break pattern and the one line index.

Python (``ast``, LibCST, the LSP) breaks lines at ``\\r\\n``, ``\\r`` and ``\\n`` only; ``str.splitlines``
also breaks at form feeds and other characters Python takes for whitespace, so it is used only where the
text holds none of them.
"""

from __future__ import annotations

import bisect
import re
from typing import List, Optional, Tuple

LINE_BREAK = re.compile(r"\r\n|\r|\n")
# One line with its break (the last may have none)
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")
# str.splitlines breaks at these too, Python does not
_ODD_BREAKS = re.compile("[\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")


def split_lines(text: str) -> List[str]:
    """The lines of ``text`` without their breaks (a text ending in a break has an empty last line)."""
    return LINE_BREAK.split(text)


def char_column(line: str, offset: int) -> int:
    """The index in ``line`` of ``ast``'s column ``offset``, which counts UTF-8 bytes."""
    return offset if line.isascii() else len(line.encode("utf-8")[:offset].decode("utf-8"))


def lines_with_breaks(text: str) -> List[str]:
    """The lines of ``text``, each with its break (``str.splitlines(keepends=True)``, as Python counts)."""
    if _ODD_BREAKS.search(text):
        return _LINE.findall(text)
    return text.splitlines(keepends=True)


def line_starts(text: str) -> List[int]:
    """The offset where each line starts (the first is 0; a text ending in a break starts one more)."""
    starts = [0]
    starts.extend(match.end() for match in LINE_BREAK.finditer(text))
    return starts


class LineIndex:
    """(1-based line, 0-based code-point column) positions <-> offsets into one text."""

    __slots__ = ("text", "starts")

    def __init__(self, text: str):
        self.text = text
        self.starts = line_starts(text)

    def offset(self, line: int, column: int) -> int:
        """The offset of a position known to be inside the text."""
        return self.starts[line - 1] + column

    def checked_offset(self, line: int, column: int) -> Optional[int]:
        """The offset, or None when the position is outside the text (the end of a line is inside, and so
        is the start of the line just past the last)."""
        if line < 1 or column < 0:
            return None
        if line == len(self.starts) + 1 and column == 0:
            return len(self.text)
        if line > len(self.starts) or column > self.line_length(line):
            return None
        return self.starts[line - 1] + column

    def line_of(self, offset: int) -> int:
        """The 1-based line holding ``offset``."""
        return bisect.bisect_right(self.starts, offset)

    def position(self, offset: int) -> Tuple[int, int]:
        line = self.line_of(offset)
        return line, offset - self.starts[line - 1]

    def line(self, number: int) -> str:
        """Line ``number``'s text without its break."""
        start = self.starts[number - 1]
        end = self.starts[number] if number < len(self.starts) else len(self.text)
        return self.text[start:end].rstrip("\r\n")

    def line_length(self, number: int) -> int:
        """Line ``number``'s length without its break."""
        start = self.starts[number - 1]
        end = self.starts[number] if number < len(self.starts) else len(self.text)
        text = self.text[start:end]
        return len(text.rstrip("\r\n")) if number < len(self.starts) else len(text)
