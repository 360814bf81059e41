"""A finding says why the tensor it is about requires grad: for AGI001, why its saving op recorded a graph
("because 'self.fc(x)' on line 10, a module's output, requires grad"); for AGI002-AGI004, why the tensor
written (or written in) does. The evidence is ``analysis.values.GradOrigin``, rendered by
``rules.report.Draft.grad_evidence``. The lint half checks the clause for each kind of evidence; the torch
half checks, on every hazard fixture, that the expression a finding names really requires grad when the
code runs there."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import fixture_support as fs
from inplace_lint import LintOptions, lint_source

AGI001_FIXTURES = [f for f in fs.discover() if f.category == "AGI001"]
HAZARD_FIXTURES = [f for f in fs.discover() if f.category != fs.SAFE_CATEGORY]


def _only(source: str, **options):
    findings = [f for f in lint_source(textwrap.dedent(source), options=LintOptions(**options) if options else None)
                if f.code == "AGI001"]
    assert len(findings) == 1, [f.message for f in findings]
    return findings[0]


MODULE = (
    "import torch\n"
    "import torch.nn as nn\n"
    "\n"
    "class Net(nn.Module):\n"
    "    def __init__(self):\n"
    "        super().__init__()\n"
    "        self.fc = nn.Linear(4, 4)\n"
    "        self.scale = nn.Parameter(torch.ones(4))\n"
    "\n"
    "    def forward(self, x):\n"
    "{body}\n"
)


# the seed's shape: fn's parameter requires grad only by what its callers pass (or by the assumption)
SEED_FN = textwrap.dedent("""
    import torch

    def fn(a):
        b = a ** 2
        for _ in range(5):
            b *= b
        return b
""")
FACTORY = textwrap.dedent("""
    import torch
    w = torch.zeros(3, requires_grad=True)
    y = w.exp()
    y.add_(1)
    y.sum().backward()
""")


@pytest.mark.parametrize("body, reason, clause", [
    ("        y = torch.sigmoid(self.fc(x))\n        y += 1\n        return y",
     "module_output", "because 'self.fc(x)' on line 11, a module's output, requires grad"),
    ("        y = torch.exp(x * self.scale)\n        y += 1\n        return y",
     "parameter", "because 'nn.Parameter(torch.ones(4))' on line 8, a parameter, requires grad"),
    ("        y = torch.exp(x)\n        y += 1\n        return y",
     "method_input", "because 'x' on line 10, an input of 'forward', may require grad"),
])
def test_module_evidence(body, reason, clause):
    finding = _only(MODULE.format(body=body))
    assert finding.evidence.grad_reason == reason
    assert clause in finding.message


def test_requires_grad_factory():
    finding = _only(FACTORY)
    assert finding.evidence.grad_reason == "requires_grad"
    assert finding.evidence.grad_source == "torch.zeros(3, requires_grad=True)"
    assert finding.evidence.grad_source_line == 3
    assert "because 'torch.zeros(3, requires_grad=True)' on line 3 requires grad" in finding.message


def test_what_the_calls_pass_names_where_it_comes_from():
    finding = _only(SEED_FN + "\na = torch.tensor(5.0, requires_grad=True)\nfn(a).backward()\n")
    assert finding.evidence.grad_reason == "callers_pass"
    assert finding.evidence.grad_source_line == 10
    assert ("because the calls of 'fn' pass 'a' a tensor that requires grad "
            "('torch.tensor(5.0, requires_grad=True)' on line 10)") in finding.message


def test_the_backward_that_meets_the_save_is_named():
    finding = _only(FACTORY)
    assert finding.evidence.backward_line == 6
    assert "; 'y.sum().backward()' on line 6 will raise" in finding.message
    returned = _only(SEED_FN + "\na = torch.tensor(5.0, requires_grad=True)\nfn(a).backward()\n")
    assert returned.evidence.backward_line == 8
    assert "; a backward through what line 8 returns will raise" in returned.message


def test_an_assumption_says_so():
    finding = _only(SEED_FN, assume_params_are_tensors=True)
    assert finding.evidence.grad_reason == "assumed"
    assert "because 'a' is assumed to require grad (assume-params-are-tensors)" in finding.message


def test_json_carries_the_evidence():
    from inplace_lint.model.findings import finding_to_json
    finding = _only(FACTORY)
    evidence = finding_to_json(finding)["evidence"]
    assert (evidence["grad_source"], evidence["grad_source_line"], evidence["grad_source_column"],
            evidence["grad_reason"]) == ("torch.zeros(3, requires_grad=True)", 3, 5, "requires_grad")


def test_sarif_relates_the_grad_source():
    from inplace_lint.adapters.output import sarif_log
    finding = _only(FACTORY)
    related = sarif_log([finding])["runs"][0]["results"][0]["relatedLocations"]
    assert [(r["physicalLocation"]["region"]["startLine"], r["message"]["text"]) for r in related] == [
        (4, "`w.exp()` saved `y` here for backward"),
        (3, "`torch.zeros(3, requires_grad=True)` requires grad"),
    ]


def test_language_server_relates_the_grad_source(tmp_path):
    pytest.importorskip("pygls")
    from inplace_lint.adapters.lsp import create_server
    path = tmp_path / "grad_source.py"
    source = FACTORY
    path.write_text(source)
    server = create_server()
    (finding,) = server.lint(path.as_uri(), source).findings
    saved, grad = server.diagnostic(path.as_uri(), source.splitlines(), finding).related_information
    assert "saved `y` here for backward" in saved.message
    assert grad.message == "`torch.zeros(3, requires_grad=True)` requires grad"
    assert (grad.location.range.start.line, grad.location.range.start.character,
            grad.location.range.end.character) == (2, 4, 38)


@pytest.mark.parametrize("fixture", AGI001_FIXTURES, ids=lambda f: f.id)
def test_every_agi001_fixture_finding_states_its_evidence(fixture):
    for finding in lint_source(fixture.source, str(fixture.path)):
        if finding.code == "AGI001":
            assert finding.evidence.grad_reason is not None, finding.message
            assert " because " in finding.message


# --- under torch: the named expression requires grad where the finding says ----------------------------

_PROBE = "__import__('builtins').__dict__['_inplace_lint_probe']({key!r}, lambda: ({expr}))"

_RUNNER = r"""
import builtins, importlib.util, json, sys
seen = {}
def probe(key, thunk):
    try:
        value = thunk()
        if type(value).__name__ == "generator":  # model.parameters(): evaluated again, so nothing is lost
            value = list(value)
        values = list(value) if isinstance(value, (tuple, list)) else [value]
        if hasattr(value, "parameters") and callable(value.parameters):  # a module: its parameters
            values = list(value.parameters())
        seen.setdefault(key, []).append(any(getattr(v, "requires_grad", False) for v in values))
    except Exception as error:
        seen.setdefault(key, []).append(type(error).__name__)
builtins._inplace_lint_probe = probe
for index, path in enumerate(sys.argv[2:]):
    spec = importlib.util.spec_from_file_location(f"probed_{index}", path)
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
        module.run()
    except Exception:
        pass  # the fixture's own error at backward: the probes before it are what counts
with open(sys.argv[1], "w") as out:
    json.dump(seen, out)
"""


def _probe_line(source: str, line: int) -> tuple:
    """Where to evaluate an expression of ``line``: before the statement starting there, or, for a def
    line (a parameter), before the function's first statement. (line, indentation) or None."""
    tree = ast.parse(source)
    lines = source.splitlines()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.lineno == line:
            first = node.body[0].lineno
            text = lines[first - 1]
            return first, text[:len(text) - len(text.lstrip())]
    starts = fs.statement_starts(source)
    if starts.get(line) != line:
        return None  # inside a multi-line statement
    text = lines[line - 1]
    return line, text[:len(text) - len(text.lstrip())]


def _probed_variants(tmp_path: Path):
    variants, expected = [], {}
    for fixture in HAZARD_FIXTURES:
        findings = [f for f in lint_source(fixture.source, str(fixture.path))
                    if f.code == fixture.category and f.evidence.grad_source_line and f.evidence.grad_source]
        inserts = {}
        for finding in findings:
            where = _probe_line(fixture.source, finding.evidence.grad_source_line)
            if where is None:
                continue
            key = f"{fixture.id}:{finding.start.line}"
            probe = where[1] + _PROBE.format(key=key, expr=finding.evidence.grad_source)
            inserts.setdefault(where[0], []).append(probe)
            expected[key] = finding.message
        if not inserts:
            continue
        lines = fixture.source.splitlines()
        for line in sorted(inserts, reverse=True):
            lines[line - 1:line - 1] = inserts[line]
        text = "\n".join(lines) + "\n"
        try:
            ast.parse(text)
        except SyntaxError:
            for key in [k for k in expected if k.startswith(fixture.id + ":")]:
                del expected[key]
            continue
        path = tmp_path / f"{len(variants)}_{fixture.path.name}"
        path.write_text(text)
        variants.append(path)
    return variants, expected


def test_the_named_source_requires_grad_under_torch(tmp_path):
    pytest.importorskip("torch")
    variants, expected = _probed_variants(tmp_path)
    findings = sum(1 for fixture in HAZARD_FIXTURES for f in lint_source(fixture.source, str(fixture.path))
                   if f.code == fixture.category)
    assert len(expected) >= 0.8 * findings, "too few findings could be probed"
    out = tmp_path / "seen.json"
    subprocess.run([sys.executable, "-c", _RUNNER, str(out)] + [str(p) for p in variants],
                   check=True, timeout=600, cwd=tmp_path)
    seen = json.loads(out.read_text())
    # a probe that could not evaluate its expression there (a comprehension's names) checked nothing
    checked = {key: message for key, message in expected.items() if False in seen.get(key, []) or True in seen.get(key, [])}
    assert len(checked) >= 0.8 * findings, f"only {len(checked)} of {findings} findings were checked"
    wrong = {key: (seen[key], message) for key, message in checked.items() if True not in seen[key]}
    assert not wrong, wrong
