"""Fuzzing: generated and mutated programs never make the core, the flake8 plugin or the CLI raise.

* ``lint_source`` raises nothing but ``LintError``, and never an "internal error" one;
* valid Python (hypothesmith's CST-based programs) is never reported as unparsable;
* the flake8 plugin yields findings or nothing, and never reports an internal error on stderr;
* the CLI, over a folder of such programs, exits 0, 1 or 2 with no traceback.

Sources: hypothesmith ``from_grammar()`` (grammar-based, often odd but valid text) and ``from_node()``
(LibCST-based), each with ``import torch`` and an in-place snippet around it so the prefilter lets it
through; and the fixture corpus mutated (random in-place ops inserted, lines deleted or duplicated,
indentation broken, text truncated).

A bounded run by default (about 20 s); ``--run-slow`` runs many more examples.
"""

from __future__ import annotations

import ast
import io
import random
import subprocess
import sys
from contextlib import redirect_stderr
from pathlib import Path

import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import fixture_support as fs  # noqa: E402
from inplace_lint.engine.core import LintError, lint_source  # noqa: E402

FIXTURES = [f.path for f in fs.discover()]

PREFIX = "import torch\nimport torch.nn.functional as F\n"
SNIPPETS = [
    "x = torch.randn(3, requires_grad=True)\ny = x.exp()\ny += 1\n",
    "def f(a):\n    b = a ** 2\n    b *= b\n    return b\n",
    "class M(torch.nn.Module):\n    def forward(self, x):\n"
    "        y = x.sigmoid()\n        y[0] = 0\n        return y\n",
    "w = torch.zeros(2, requires_grad=True)\nw.add_(1)\n",
]
INPLACE_LINES = [
    "x.add_(1)", "x *= x", "x[0] = 0", "x = F.relu(x, inplace=True)", "y = x.exp()", "x.mul_(y)",
    "y.sigmoid_()", "torch.add(x, y, out=x)", "x.data.zero_()", "with torch.no_grad():\n    x.zero_()",
    "x.requires_grad_()", "opt.step()", "x = x.clone()", "del x", "return x", "yield x", "x += y",
]


def _examples(default: int, slow: int):
    return settings(
        max_examples=default,
        deadline=None,
        derandomize=True,
        suppress_health_check=list(HealthCheck),
        database=None,
    ), settings(max_examples=slow, deadline=None, suppress_health_check=list(HealthCheck), database=None)


def _check_core(source: str, valid: bool = False) -> None:
    try:
        lint_source(source, "fuzz.py")
    except LintError as error:
        message = str(error)
        assert "internal error" not in message, f"{message}\n--- source ---\n{source}"
        assert "\n" not in message, message
        if valid:
            # valid Python (ast accepts it, nothing runs) must not be called unparsable, unless LibCST
            # itself cannot parse it, which is not this project's bug
            assert not message.startswith("cannot parse") or _libcst_rejects(source), (
                f"valid code reported as {message!r}\n--- source ---\n{source}")


def _libcst_rejects(source: str) -> bool:
    import libcst

    try:
        libcst.parse_module(source)
    except Exception:
        return True
    return False


def _check_flake8_plugin(source: str) -> None:
    from inplace_lint.adapters.flake8_plugin import InplaceLintChecker

    lines = source.splitlines(keepends=True)
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        tree = ast.Module(body=[], type_ignores=[])
    captured = io.StringIO()
    with redirect_stderr(captured):
        results = list(InplaceLintChecker(tree, "fuzz.py", lines).run())
    for line, column, message, _ in results:
        assert isinstance(line, int) and isinstance(column, int) and message.startswith("AGI")
    assert "internal error" not in captured.getvalue(), captured.getvalue() + "\n--- source ---\n" + source


def _wrap(program: str, snippet_index: int) -> str:
    return PREFIX + program + ("\n" if not program.endswith("\n") else "") + SNIPPETS[snippet_index]


# ----------------------------------------------------------------------------------- hypothesmith

hypothesmith = pytest.importorskip("hypothesmith")

GRAMMAR_FAST, GRAMMAR_SLOW = _examples(40, 1000)
NODE_FAST, NODE_SLOW = _examples(40, 1000)


def _grammar_property(program, snippet):
    source = _wrap(program, snippet)
    _check_core(source, valid=True)
    _check_flake8_plugin(source)


def _node_property(program, snippet):
    source = _wrap(program, snippet)
    _check_core(source, valid=True)
    _check_flake8_plugin(source)


_grammar = given(hypothesmith.from_grammar(), st.integers(0, len(SNIPPETS) - 1))
_node = given(hypothesmith.from_node(), st.integers(0, len(SNIPPETS) - 1))


@GRAMMAR_FAST
@_grammar
def test_grammar_programs(program, snippet):
    _grammar_property(program, snippet)


@GRAMMAR_SLOW
@_grammar
@pytest.mark.slow
def test_grammar_programs_long(program, snippet):
    _grammar_property(program, snippet)


@NODE_FAST
@_node
def test_cst_programs(program, snippet):
    _node_property(program, snippet)


@NODE_SLOW
@_node
@pytest.mark.slow
def test_cst_programs_long(program, snippet):
    _node_property(program, snippet)


# -------------------------------------------------------------------------------- mutated fixtures


def mutate(source: str, rng: random.Random, rounds: int) -> str:
    lines = source.splitlines()
    for _ in range(rounds):
        if not lines:
            lines = ["import torch"]
        kind = rng.randrange(7)
        index = rng.randrange(len(lines))
        indent = " " * rng.choice([0, 4, 8, 12, 2, 3])
        if kind == 0:  # insert an in-place op (or a control-flow line) at some indentation
            for offset, text in enumerate(rng.choice(INPLACE_LINES).split("\n")):
                lines.insert(index + offset, indent + text)
        elif kind == 1:  # delete a line
            del lines[index]
        elif kind == 2:  # break the indentation of a line
            stripped = lines[index].lstrip()
            lines[index] = " " * rng.randrange(0, 13) + stripped
        elif kind == 3:  # duplicate a line
            lines.insert(index, lines[index])
        elif kind == 4:  # swap two lines
            other = rng.randrange(len(lines))
            lines[index], lines[other] = lines[other], lines[index]
        elif kind == 5:  # truncate a line at a random point
            lines[index] = lines[index][: rng.randrange(len(lines[index]) + 1)]
        else:  # insert a random character (bracket, quote, colon, backslash...)
            text = lines[index]
            at = rng.randrange(len(text) + 1)
            lines[index] = text[:at] + rng.choice("()[]{}:'\"\\#,=.*@\t") + text[at:]
    text = "\n".join(lines) + "\n"
    if rng.random() < 0.1:
        text = text[: rng.randrange(len(text) + 1)]
    return text


MUTATE_FAST, MUTATE_SLOW = _examples(120, 3000)
_mutations = given(st.sampled_from(FIXTURES), st.integers(0, 2**32 - 1), st.integers(1, 8))


def _mutation_property(path, seed, rounds):
    source = mutate(Path(path).read_text(encoding="utf-8"), random.Random(seed), rounds)
    _check_core(source)
    _check_flake8_plugin(source)


@MUTATE_FAST
@_mutations
def test_mutated_fixtures(path, seed, rounds):
    _mutation_property(path, seed, rounds)


@MUTATE_SLOW
@_mutations
@pytest.mark.slow
def test_mutated_fixtures_long(path, seed, rounds):
    _mutation_property(path, seed, rounds)


# ------------------------------------------------------------------------------------------ the CLI


def _cli_over(folder: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "inplace_lint", "check", "--output-format", "json", str(folder)],
        capture_output=True, text=True, timeout=600,
    )
    assert proc.returncode in (0, 1, 2), proc.stderr
    assert "Traceback" not in proc.stderr, proc.stderr
    assert "internal error" not in proc.stderr, proc.stderr
    for line in proc.stderr.splitlines():  # per-file errors: one line each, naming the file
        assert line.startswith("inplace-lint") or "fuzz_" in line, line


@pytest.mark.parametrize(
    "count", [pytest.param(40, id="bounded"), pytest.param(1500, id="long", marks=pytest.mark.slow)]
)
def test_cli_over_mutated_fixtures(tmp_path, count):
    rng = random.Random(count)
    for number in range(count):
        source = mutate(rng.choice(FIXTURES).read_text(encoding="utf-8"), rng, rng.randint(1, 8))
        (tmp_path / f"fuzz_{number}.py").write_text(source, encoding="utf-8")
    _cli_over(tmp_path)
