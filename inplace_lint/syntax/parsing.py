"""``ast.parse`` as the lint parses: without its SyntaxWarnings (invalid escapes and the like), which the
lint does not report and LibCST's parse ignores too. A module of its own, so that what needs only this
(whole-program linking, on a cached re-run too) does not import the selection."""

from __future__ import annotations

import ast
import warnings


def parse_quietly(text: str) -> ast.Module:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ast.parse(text)
