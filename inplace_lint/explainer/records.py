"""What the tracer records (plain value classes; no torch)."""

from __future__ import annotations

import linecache
from typing import Any, Optional, Tuple

from inplace_lint.model.records import Record


class Site(Record):
    """A line of the user's code that ran a torch op, and the torch modules the op ran inside."""

    path: str
    line: int
    code: Any = None  # the code object, for the column (Python 3.11+ knows each instruction's)
    lasti: int = -1
    function: str = ""
    module: Optional[str] = None  # the innermost torch module the op ran in: "nn.ReLU (inplace=True)"
    module_built: Optional["Site"] = None  # the user line that built that module
    via_container: bool = False  # a torch container (nn.Sequential) called it: blame the build line

    @property
    def column(self) -> int:
        """0-based column of the call on the line, as the linter reports columns."""
        positions = getattr(self.code, "co_positions", None)
        if positions is not None and self.lasti >= 0:
            try:
                for index, (line, _end, column, _end_column) in enumerate(positions()):
                    if index == self.lasti // 2:
                        if line == self.line and column is not None:
                            return column
                        break
            except Exception:
                pass
        text = self.source_line
        return len(text) - len(text.lstrip()) if text else 0

    @property
    def source_line(self) -> str:
        return linecache.getline(self.path, self.line).rstrip("\n")

    @property
    def blamed(self) -> "Site":
        """The line to blame: the module's build line when a torch container ran it, else this one."""
        return self.module_built if self.via_container and self.module_built is not None else self


class Write(Record):
    """An in-place write: a torch call after which a tensor argument's version had moved on."""

    seq: int
    site: Optional[Site]
    op: str
    before: int
    after: int
    shape: Tuple[int, ...] = ()
    dtype: str = ""
    is_view: bool = False


class StaleSave(Record):
    """A saved tensor backward found modified, and the write that modified it."""

    site: Optional[Site]  # where it was saved
    op: Optional[str]  # the op that saved it
    role: str  # "input" or "result"
    shape: Tuple[int, ...]
    dtype: str
    saved_version: int
    version: int
    culprit: Optional[Write] = None
    is_view: bool = False


class ImmediateError(Record):
    """AGI002-AGI004: torch refused the in-place op itself."""

    site: Site  # where torch raised: the write, or (a view used after its base was written) the use
    op: str
    message: str
    write: Optional[Write] = None  # for the latter, the last write to the view's storage
