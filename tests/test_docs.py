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
