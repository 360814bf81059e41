"""inplace-lint: find in-place autograd hazards in PyTorch code without running it."""

from inplace_lint.ftypes import Edit, Evidence, Finding, Fix, LintOptions, Position

__version__ = "0.1.0"

__all__ = ["Edit", "Evidence", "Finding", "Fix", "LintOptions", "Position", "lint_source", "__version__"]


def lint_source(source, path="<string>", options=None):
    """Lint Python ``source`` text; return a list of :class:`Finding` sorted by position."""
    from inplace_lint.engine import lint_source as _lint_source

    return _lint_source(source, path, options)
