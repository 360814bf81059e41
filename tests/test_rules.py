"""Every rule is one unit (inplace_lint/rules/agiNNN_<name>/), found by scanning, documented, with its
fixtures, and its VALID / INVALID examples hold (Fixit style: linted at the default level, fixed with
unsafe fixes on)."""

from pathlib import Path

import pytest

import inplace_lint
from inplace_lint.model.events import WriteEvent
from inplace_lint.rules import RULES, units
from inplace_lint.rules.__main__ import render
from inplace_lint.rules.examples import Invalid, Valid
from inplace_lint.rules.report import behaviour

ROOT = Path(__file__).resolve().parents[1]
RULES_DIR = ROOT / "inplace_lint" / "rules"


def test_every_unit_is_registered_once():
    packages = sorted(p.name for p in RULES_DIR.iterdir() if (p / "__init__.py").exists())
    assert packages == units()  # nothing listed by hand: every agiNNN_ package is a rule
    assert sorted(rule.unit.rpartition(".")[2] for rule in RULES.values()) == units()
    for rule in RULES.values():
        assert rule.unit.rpartition(".")[2].startswith(rule.code.lower() + "_"), rule.unit
        assert rule.name and rule.summary and rule.doc
        assert issubclass(rule.event, WriteEvent), rule.code
        assert set(rule.supersedes) <= set(RULES) - {rule.code}, rule.code
        unit = behaviour(rule)  # its message and its fix live in its unit
        assert callable(unit.report) and callable(unit.plan_fix), rule.code
        assert any(isinstance(e, Valid) for e in rule.valid), f"{rule.code} has no VALID example"
        assert any(isinstance(e, Invalid) for e in rule.invalid), f"{rule.code} has no INVALID example"
    events = [rule.event for rule in RULES.values()]
    assert len(set(events)) == len(events)  # one rule per event type


def test_every_rule_is_documented_and_has_fixtures():
    for code, rule in RULES.items():
        page = ROOT / "docs" / "rules" / f"{code}.md"
        assert page.exists() and page.read_text(encoding="utf-8") == render(rule), \
            f"{page} missing or stale: run python -m inplace_lint.rules"
        assert any((ROOT / "tests" / "fixtures" / code).glob("*.py")), f"no fixtures for {code}"
    folders = {p.name for p in (ROOT / "tests" / "fixtures").iterdir() if p.is_dir()}
    assert folders - {"safe"} <= set(RULES)  # a fixture folder names a rule
    assert not set(page.stem for page in (ROOT / "docs" / "rules").glob("AGI*.md")) - set(RULES)


EXAMPLES = [(rule.code, index, example) for rule in RULES.values()
            for index, example in enumerate(rule.valid + rule.invalid)]


@pytest.mark.parametrize("code,index,example", EXAMPLES,
                         ids=[f"{code}-{type(e).__name__.lower()}-{i}" for code, i, e in EXAMPLES])
def test_example(code, index, example):
    findings = inplace_lint.lint_source(example.code)
    if isinstance(example, Valid):
        assert code not in {f.code for f in findings}, [f.message for f in findings]
        return
    assert isinstance(example, Invalid)
    assert (code, example.line) in {(f.code, f.start.line) for f in findings}, \
        [(f.code, f.start.line, f.message) for f in findings]
    fixed = inplace_lint.fix_source(example.code, unsafe=True).source
    assert fixed == (example.fixed if example.fixed is not None else example.code)


def test_a_rule_lives_in_its_unit():
    """No lint-time module outside a rule's unit names a rule's code (the analysis reports events, the
    fixes plan what a rule hands them): adding a rule touches its unit and its fixtures."""
    import ast
    import re

    core = ("model", "knowledge", "syntax", "analysis", "fixkit", "rules", "engine")
    offenders = []
    for layer in core:
        for path in sorted((ROOT / "inplace_lint" / layer).rglob("*.py")):
            if path.parent.parent == RULES_DIR and path.parent.name in units():
                continue  # the unit itself
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Constant) and isinstance(node.value, str) and \
                        re.fullmatch(r"AGI\d{3}", node.value):
                    offenders.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.value}")
    assert offenders == []
