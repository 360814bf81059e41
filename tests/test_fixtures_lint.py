"""The linter against the fixture corpus (the corpus is the spec), plus the corpus's own shape.

``lint_source`` must report exactly the ``# expect:`` markers of every fixture: the hazards' lines and
codes, and nothing at all in ``tests/fixtures/safe``. No torch is imported here.
"""

from __future__ import annotations

import ast

import pytest

import fixture_support as fs
import inplace_lint
from inplace_lint.rules import RULES

FIXTURES = fs.discover()
SEED_FIXTURES = {
    "AGI001/seed_pow_loop_inplace": "b *= b in a loop: the multiplication saves b, then overwrites it",
    "safe/seed_rebind_loop": "b = b * b: a.grad == 625000",
    "safe/seed_c_times_b": "c *= b with b untouched",
    "safe/seed_two_programs": "both programs in one process: a.grad accumulates to 643750",
}


def _ids(fixture):
    return fixture.id


def _show(source: str, items) -> str:
    lines = source.splitlines()

    def text(line):
        return lines[line - 1].strip() if 0 < line <= len(lines) else "?"

    return "\n".join(f"  {line:>3} {code}: {text(line)}" for line, code in sorted(items))


@pytest.mark.parametrize("fixture", FIXTURES, ids=_ids)
def test_findings_match_markers(fixture):
    source = fixture.source
    findings = inplace_lint.lint_source(source, str(fixture.path))
    got = {(f.start.line, f.code) for f in findings}
    expected = set(fixture.markers)
    missing, unexpected = expected - got, got - expected
    assert not missing and not unexpected, (
        f"{fixture.id}\nmissed (expected, not reported):\n{_show(source, missing) or '  -'}"
        f"\nfalse positives (reported, not expected):\n{_show(source, unexpected) or '  -'}"
    )


# ---------------------------------------------------------------------------------------------- corpus


def test_corpus_size():
    safe = [f for f in FIXTURES if f.category == fs.SAFE_CATEGORY]
    assert len(FIXTURES) >= fs.MIN_FIXTURES, f"{len(FIXTURES)} fixtures, want >= {fs.MIN_FIXTURES}"
    assert len(safe) >= fs.MIN_SAFE_FIXTURES, f"{len(safe)} safe fixtures, want >= {fs.MIN_SAFE_FIXTURES}"


@pytest.mark.parametrize("code", sorted(RULES))
def test_every_rule_has_fixtures(code):
    hits = [f.id for f in FIXTURES if code in f.codes]
    want = fs.MIN_FIXTURES_PER_RULE
    assert len(hits) >= want, f"{code}: {len(hits)} fixtures, want >= {want}"


def test_seed_programs_are_fixtures():
    ids = {f.id for f in FIXTURES}
    assert not set(SEED_FIXTURES) - ids, f"seed fixtures missing: {sorted(set(SEED_FIXTURES) - ids)}"


def test_fixture_names_unique():
    stems = [f.path.stem for f in FIXTURES]
    assert len(stems) == len(set(stems)), sorted({s for s in stems if stems.count(s) > 1})


@pytest.mark.parametrize("fixture", FIXTURES, ids=_ids)
def test_fixture_is_well_formed(fixture):
    source = fixture.source
    tree = ast.parse(source, str(fixture.path))
    markers = fixture.markers  # raises on a malformed marker
    codes = fixture.codes
    if fixture.category == fs.SAFE_CATEGORY:
        assert not markers, f"a safe fixture has markers: {sorted(markers)}"
    else:
        assert markers, "a hazard fixture needs at least one '# expect:' marker"
        assert codes == {fixture.category}, f"markers {sorted(codes)} in directory {fixture.category}"
        assert codes <= set(RULES), f"unknown codes {sorted(codes - set(RULES))}"

    doc = ast.get_docstring(tree)
    assert doc and doc.strip(), "module docstring: what the case is and why it does / doesn't raise"
    functions = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
    assert "run" in functions, "defines run()"
    imports = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, (ast.Import,)) for a in n.names}
    assert "torch" in imports, "imports torch itself"
    assert "torch.manual_seed(0)" in source, "deterministic: torch.manual_seed(0)"

    lines = source.splitlines()
    for line, _ in markers:  # a marker sits on code, not on a comment-only line
        assert lines[line - 1].split("#", 1)[0].strip(), f"line {line}: marker on a line without code"
