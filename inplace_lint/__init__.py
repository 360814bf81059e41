"""inplace-lint: find in-place autograd hazards in PyTorch code without running it.

The Python API (documented in docs/api.md): :func:`lint_source`, :func:`fix_source`, and the value
classes they return. Linting never imports torch.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, List, Optional

from inplace_lint.model.findings import Edit, Evidence, Finding, Fix, LintError, LintOptions, Position
from inplace_lint.model.records import Record

if TYPE_CHECKING:  # imported lazily at run time: a cached CLI run loads neither
    from inplace_lint.engine.config import Settings

from inplace_lint.model.version import __version__

__all__ = [
    "Edit",
    "Evidence",
    "Finding",
    "Fix",
    "FixedSource",
    "LintError",
    "LintOptions",
    "Position",
    "explain",
    "fix_source",
    "lint_source",
    "__version__",
]


class FixedSource(Record):
    """What :func:`fix_source` did: the new text, how many fixes it applied, the findings left in it."""

    source: str
    fixed: int
    remaining: List[Finding]


def _settings(options: Optional[LintOptions]) -> "Settings":
    from inplace_lint.engine.config import Settings

    options = options or LintOptions()
    return Settings(
        select=tuple(options.select),
        ignore=tuple(options.ignore),
        assume_params_are_tensors=options.assume_params_are_tensors,
    )


def lint_source(
    source: str, path: str = "<string>", options: Optional[LintOptions] = None, noqa: bool = True
) -> List[Finding]:
    """Lint Python ``source`` text; return its findings sorted by position.

    ``path`` only names the file in the findings. ``noqa=False`` also reports findings that a
    ``# noqa`` comment suppresses. Raises :class:`inplace_lint.LintError` (one message, with
    ``line`` and ``column``) when the text cannot be parsed. Never runs or imports the code, nor torch.
    """
    from inplace_lint.engine.core import lint_source as _lint_source

    findings = _lint_source(source, path, options)
    if not noqa:
        return findings
    from inplace_lint.syntax.noqa import filter_suppressed

    return filter_suppressed(findings, source)


def fix_source(
    source: str, path: str = "<string>", options: Optional[LintOptions] = None, unsafe: bool = False
) -> FixedSource:
    """Apply the findings' fixes to ``source`` (safe ones; with ``unsafe``, unsafe ones too), in rounds
    until none applies, as ``inplace-lint --fix`` does. Returns the new text (``source`` itself when
    nothing applied), the number of fixes applied and the findings that remain."""
    from inplace_lint.engine.core import lint_source as engine_lint
    from inplace_lint.fixkit.apply import fix_text

    outcome = fix_text(source, path, _settings(options), unsafe=unsafe, linter=engine_lint)
    return FixedSource(source=outcome.source, fixed=outcome.fixed, remaining=outcome.remaining)


def explain(file=None, static_check=True, is_user=None):
    """A context manager that runs its block under ``inplace-lint explain``'s tracer (importing torch) and,
    when the block raises one of torch's in-place autograd errors, writes which line made the write::

        with inplace_lint.explain():
            train_step()
    """
    from inplace_lint.explainer.session import explain as _explain

    return _explain(file=file, static_check=static_check, is_user=is_user)
