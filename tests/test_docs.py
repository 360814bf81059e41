"""Docs stay in step with the code: every rule has a page and a README row; the README's commands run in CI."""

import re
from pathlib import Path

from inplace_lint.rules import RULES
from inplace_lint.rules.__main__ import render

ROOT = Path(__file__).resolve().parents[1]
HEADINGS = ["## What it does", "## Why is this bad?", "## Example", "## Use instead", "## Fix safety",
            "## Known problems"]


def test_every_rule_has_a_generated_page():
    for code, rule in RULES.items():
        page = ROOT / "docs" / "rules" / f"{code}.md"
        assert page.exists(), f"{page} missing: run python -m inplace_lint.rules"
        assert page.read_text(encoding="utf-8") == render(rule), f"{page} is stale: run python -m inplace_lint.rules"


def test_rule_docs_have_the_headings_in_order():
    for rule in RULES.values():
        positions = [rule.doc.find(h) for h in HEADINGS]
        assert all(p >= 0 for p in positions), (rule.code, positions)
        assert positions == sorted(positions), rule.code


def test_a_self_contained_example_is_reported_at_the_default_level():
    """A rule page's example that is a whole program (it imports torch) is what the linter flags with no
    option set: a reader who lints it sees the rule's finding."""
    from inplace_lint.engine.core import lint_source

    checked = 0
    for code, rule in RULES.items():
        example = re.search(r"## Example\n+```python\n(.*?)```", rule.doc, re.S).group(1)
        if "import torch" not in example:
            continue  # a fragment (self.qkv(x) ...), shown in a module the reader imagines
        assert code in {f.code for f in lint_source(example)}, (code, example)
        checked += 1
    assert checked >= 2  # AGI001's and AGI004's


def test_readme_has_a_row_per_rule_and_no_other():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    rows = set(re.findall(r"^\| \[(AGI\d{3})\]", readme, re.M))
    assert rows == set(RULES)
    for code, rule in RULES.items():
        assert rule.name in readme


def test_ci_runs_the_readme_test_command():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    commands = re.findall(r"```sh\n(python3 -m venv .*)\n```", readme)
    assert len(commands) == 2, commands
    test_command = commands[1]
    assert test_command.split("&& ", 1)[1] in ci


def test_readme_example_output_is_what_the_cli_prints():
    import subprocess
    import sys

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    shown = re.search(r"```console\n\$ inplace-lint examples/seed.py\n(.*?)\n```", readme, re.S).group(1)
    run = subprocess.run([sys.executable, "-m", "inplace_lint", "examples/seed.py"], cwd=ROOT,
                         capture_output=True, text=True)
    assert run.returncode == 1
    assert run.stdout.strip() == shown.strip()
