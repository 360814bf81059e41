"""``inplace_lint.explain()``: trace a block, and explain the in-place error it raises (imports torch on
entry, not on import)."""

from __future__ import annotations

import sys
from typing import Callable, List, Optional, TextIO

from inplace_lint.explainer.records import Site
from inplace_lint.explainer.report import (
    HEADER, StaticCheck, culprit_sites, error_kind, format_immediate, format_stale,
)


class explain:
    """Run a block under the tracer; when it raises one of torch's in-place errors, write the explanation
    (to ``file``, default stderr) and let the error propagate unchanged (errors the block raised and
    caught itself are explained when it ends)::

        with inplace_lint.explain():
            loss = model(x).sum()
            loss.backward()

    ``static_check=False`` skips running the linter on the culprit's file. ``is_user(filename)`` says
    which code is the user's (default: everything outside torch, inplace_lint and the standard library).
    """

    def __init__(self, file: Optional[TextIO] = None, static_check: bool = True,
                 is_user: Optional[Callable[[str], bool]] = None):
        self.file = file
        self.check = StaticCheck(static_check)
        self.is_user = is_user
        self.tracer = None
        self.reports: List[str] = []  # every explanation written, in order
        self.culprits: List[List[Site]] = []  # per explanation, the lines blamed (primary first)
        self._reported_stale = 0
        self._reported_immediate = 0

    def __enter__(self) -> "explain":
        from inplace_lint.explainer.tracer import Tracer

        self.tracer = Tracer(self.is_user)
        self.tracer.__enter__()
        return self

    def __exit__(self, exc_type, exc, tb) -> bool:
        tracer = self.tracer
        tracer.__exit__(exc_type, exc, tb)
        text = self.explain_error(exc) if exc is not None and error_kind(exc) else ""
        text += self.explain_caught()  # errors the block raised and caught itself
        if text:
            self._write(text)
        return False

    # ---------------------------------------------------------------------------------------------

    def explain_error(self, error: BaseException) -> str:
        """The explanation of ``error`` (one of torch's in-place errors), or ``""``."""
        kind = error_kind(error)
        if kind is None or self.tracer is None:
            return ""
        tracer = self.tracer
        if kind == "AGI001":
            if not tracer.stale:
                return ""
            stale = tracer.stale[-1]
            self._reported_stale = len(tracer.stale)
            text, sites = format_stale(stale, self.check), culprit_sites(stale=stale)
        else:
            immediate = tracer.immediate[-1] if tracer.immediate else None
            self._reported_immediate = len(tracer.immediate)
            fallback = None if immediate else _innermost_user_site(error, tracer)
            text = format_immediate(kind, immediate, fallback, self.check)
            sites = culprit_sites(immediate=immediate) or ([fallback] if fallback else [])
        self.culprits.append(sites)
        self.reports.append(text)
        return f"{HEADER}\n{text}\n"

    def explain_caught(self) -> str:
        """Explanations of the errors the traced code raised and caught itself (not yet explained)."""
        tracer = self.tracer
        if tracer is None:
            return ""
        parts = []
        for stale in tracer.stale[self._reported_stale:]:
            parts.append(format_stale(stale, self.check))
            self.culprits.append(culprit_sites(stale=stale))
        for immediate in tracer.immediate[self._reported_immediate:]:
            code = error_kind(RuntimeError(immediate.message)) or "AGI002"
            parts.append(format_immediate(code, immediate, None, self.check))
            self.culprits.append(culprit_sites(immediate=immediate))
        self._reported_stale, self._reported_immediate = len(tracer.stale), len(tracer.immediate)
        self.reports.extend(parts)
        if not parts:
            return ""
        return ("inplace-lint explain: the program raised and caught these in-place errors\n"
                + "\n".join(parts) + "\n")

    def _write(self, text: str) -> None:
        stream = self.file or sys.stderr
        stream.write(text)
        stream.flush()


def _innermost_user_site(error: BaseException, tracer) -> Optional[Site]:
    """Where the error surfaced in the user's code (``mark_dirty`` raises outside any torch call)."""
    found = None
    tb = error.__traceback__
    while tb is not None:
        code = tb.tb_frame.f_code
        if tracer._is_user(code):
            found = Site(path=code.co_filename, line=tb.tb_lineno, code=code, lasti=tb.tb_lasti,
                         function=code.co_name)
        tb = tb.tb_next
    return found
