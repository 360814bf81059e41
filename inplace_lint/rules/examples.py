"""A rule's examples, Fixit style: code it must leave alone, and code it must flag (with what its fix
makes of it). tests/test_rules.py lints every rule's examples at the default level."""

from __future__ import annotations

from typing import Optional

from inplace_lint.model.records import FrozenRecord


class Valid(FrozenRecord):
    """Code the rule reports nothing in."""

    code: str


class Invalid(FrozenRecord):
    """Code the rule reports on ``line`` (1-based); ``fixed``: the text once every fix is applied
    (``--fix --unsafe-fixes``), None when the finding has no fix."""

    code: str
    line: int
    fixed: Optional[str] = None
