"""The rules: one unit per code, found by scanning this package (``agiNNN_<name>``), never listed by hand.

A unit is a package. Its ``__init__`` holds what every start-up may read without loading LibCST: the
docstring (the rule's user documentation, headings What it does / Why is this bad? / Example / Use instead
/ Fix safety / Known problems; docs/rules/<CODE>.md is generated from it: ``python -m inplace_lint.rules``),
``CODE``, ``NAME``, ``SUMMARY``, ``EVENT`` (the event type of inplace_lint.model.events it turns into
findings), ``SUPERSEDES`` (the codes it drops at the same write), ``TORCH_ERROR`` (a pattern of what torch
raises, which confirms each run of its fixtures) and its ``VALID`` / ``INVALID`` examples
(inplace_lint.rules.examples; tests/test_rules.py runs them). Its ``report`` module turns one event into
a finding: the message, the fix plan and its safety (inplace_lint.rules.report calls it).
Its runnable fixtures live in tests/fixtures/<CODE>/, its golden fixes in tests/golden_fixes/<CODE>/.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from typing import Dict, Tuple

from inplace_lint.model.findings import DOCS_URL
from inplace_lint.model.records import FrozenRecord

UNIT_NAME = re.compile(r"agi\d{3}_\w+")


class Rule(FrozenRecord):
    code: str
    name: str
    summary: str
    doc: str
    event: type = object  # the event type it reports
    supersedes: Tuple[str, ...] = ()  # codes it replaces where it fires at the same write
    unit: str = ""  # its package: inplace_lint.rules.<unit>
    torch_error: str = ""  # a regular expression matching what torch raises for it
    valid: tuple = ()  # its examples (inplace_lint.rules.examples)
    invalid: tuple = ()

    @property
    def url(self) -> str:
        return DOCS_URL.format(code=self.code)


def _rule(module) -> Rule:
    return Rule(module.CODE, module.NAME, module.SUMMARY, (module.__doc__ or "").strip(), module.EVENT,
                tuple(getattr(module, "SUPERSEDES", ())), module.__name__, module.TORCH_ERROR,
                tuple(getattr(module, "VALID", ())), tuple(getattr(module, "INVALID", ())))


def units() -> list:
    """The rule packages of this package, by name."""
    return sorted(info.name for info in pkgutil.iter_modules(__path__)
                  if info.ispkg and UNIT_NAME.fullmatch(info.name))


RULES: Dict[str, Rule] = {
    rule.code: rule
    for rule in sorted((_rule(importlib.import_module(f"{__name__}.{name}")) for name in units()),
                       key=lambda rule: rule.code)
}
