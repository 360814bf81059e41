"""The rule registry: one module per code, its docstring is the rule's user documentation.

Each rule module defines ``CODE``, ``NAME``, ``SUMMARY`` and a docstring with the headings
What it does / Why is this bad? / Example / Use instead / Fix safety / Known problems.
docs/rules/<CODE>.md is generated from that docstring (``python -m inplace_lint.rules``).
"""

from __future__ import annotations

from typing import Dict

from inplace_lint.model.findings import DOCS_URL
from inplace_lint.model.records import FrozenRecord
from inplace_lint.rules import (
    agi001_saved_tensor_modified,
    agi002_leaf_modified,
    agi003_multi_view_modified,
    agi004_nograd_view_modified,
)



class Rule(FrozenRecord):
    code: str
    name: str
    summary: str
    doc: str

    @property
    def url(self) -> str:
        return DOCS_URL.format(code=self.code)


def _rule(module) -> Rule:
    return Rule(module.CODE, module.NAME, module.SUMMARY, (module.__doc__ or "").strip())


RULES: Dict[str, Rule] = {
    r.code: r for r in map(_rule, (agi001_saved_tensor_modified, agi002_leaf_modified, agi003_multi_view_modified,
                                   agi004_nograd_view_modified))
}
