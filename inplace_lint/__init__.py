"""inplace-lint: find in-place autograd hazards in PyTorch code without running it."""

from inplace_lint.ftypes import Edit, Evidence, Finding, Fix, LintOptions, Position

__version__ = "0.1.0"

__all__ = [
    "Edit", "Evidence", "Finding", "Fix", "LintOptions", "Position", "explain", "lint_source", "__version__",
]


def lint_source(source, path="<string>", options=None):
    """Lint Python ``source`` text; return a list of :class:`Finding` sorted by position."""
    from inplace_lint.engine import lint_source as _lint_source

    return _lint_source(source, path, options)


def explain(file=None, static_check=True, is_user=None):
    """A context manager that runs its block under ``inplace-lint explain``'s tracer (importing torch) and,
    when the block raises one of torch's in-place autograd errors, writes which line made the write::

        with inplace_lint.explain():
            train_step()
    """
    from inplace_lint.explainer.session import explain as _explain

    return _explain(file=file, static_check=static_check, is_user=is_user)
