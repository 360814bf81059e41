"""A helper that writes its parameter in place only when it requires no grad
(inplace_lint.analysis.parameters._runs_only_without_grad): the guard counts for the parameter it tests,
and only when the grad branch leaves the function. The safe case is the runnable fixture
tests/fixtures/safe/helper_writes_only_when_no_grad.py; torch raises on each variant below (checked by
running them: the sigmoid's saved result is zeroed in place before backward)."""

from __future__ import annotations

from pathlib import Path

import pytest

from inplace_lint.engine.core import lint_source

FIXTURE = Path(__file__).parent / "fixtures" / "safe" / "helper_writes_only_when_no_grad.py"
SOURCE = FIXTURE.read_text()


def test_the_guarded_write_is_clean():
    assert lint_source(SOURCE, "<string>") == []


@pytest.mark.parametrize("guard, why", [
    ("    if mask.requires_grad:\n        return att * keep\n", "the test is on another tensor"),
    ("    if att.requires_grad:\n        keep = keep * 1\n", "the grad branch goes on to the write"),
])
def test_a_guard_that_does_not_cover_the_write_leaves_the_finding(guard, why):
    source = SOURCE.replace("def zero_border(att):", "def zero_border(att, mask=torch.ones(1)):")
    start = source.index("    if att.requires_grad:")
    end = source.index("    att[..., 0] = 0")
    source = source[:start] + "    keep = torch.ones_like(att)\n" + guard + source[end:]
    findings = lint_source(source, "<string>")
    assert [f.code for f in findings] == ["AGI001"], why
