"""Bad input gets one clear message and never a traceback: in the core, the CLI, flake8 and the LSP server.

Every case runs the real code: ``lint_source`` in-process (or in a subprocess where a crash of the
interpreter itself would be possible: deep nesting), the CLI and flake8 as subprocesses. The LSP cases
add to tests/test_lsp.py (which already covers malformed params, an unknown request, a non-JSON body and
code actions / hover for an unopened document) what it does not cover.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import List

import pytest

from inplace_lint.engine.core import LintError
from inplace_lint.engine.core import lint_source as _lint_source
from inplace_lint.model.findings import LintOptions

# The bad inputs are plain functions with no caller: their hazards rest on the assumption that a
# parameter requires grad, which the opt-in level makes (the default level asks a caller for evidence).
ASSUMED = LintOptions(assume_params_are_tensors=True)


def lint_source(source, path="<string>", options=ASSUMED):
    return _lint_source(source, path, options)

PYTHON = sys.executable
CLI = [PYTHON, "-m", "inplace_lint", "check", "--assume-params-are-tensors"]  # see ASSUMED
SEED = "import torch\ndef fn(a):\n    b = a ** 2\n    for i in range(5):\n        b *= b\n    return b\n"
# the call is the evidence the default level needs: it passes fn a tensor that requires grad
SEED += "fn(torch.tensor(5.0, requires_grad=True)).backward()\n"
SEED_FINDING_LINE = 5
# No test here times anything: speed is measured in benchmarks/pathological.py. Bounded work is asserted
# as counted Python calls (sys.setprofile: the same on an idle and a loaded machine), comparing two sizes
# in one run. A subprocess is killed at KILL_AFTER wall seconds only so that a hang cannot stall the
# suite; that is far beyond any run's length, even on a loaded machine.
KILL_AFTER = 300.0
# 4x the input may cost at most GROWTH x the calls: linear work gives about 4, quadratic 16.
GROWTH = 6.0


def _children_cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _run(cmd, cwd=None, timeout=KILL_AFTER, env=None, stdin=None):
    """Run ``cmd``; return its process and the CPU seconds it used (for messages only: no test asserts
    on time)."""
    start = _children_cpu_seconds()
    proc = subprocess.run(
        cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout, env=env, input=stdin,
        errors="replace",
    )
    return proc, _children_cpu_seconds() - start


def _calls(function, *args):
    """How many Python function calls ``function(*args)`` makes: a measure of work that does not depend
    on how busy the machine is. Returns (calls, result)."""
    calls = [0]

    def count(frame, event, arg):
        if event == "call":
            calls[0] += 1

    sys.setprofile(count)
    try:
        result = function(*args)
    finally:
        sys.setprofile(None)
    return calls[0], result


def _no_traceback(text: str) -> None:
    assert "Traceback (most recent call last)" not in text, text
    assert "internal error" not in text, text


def _one_line_for(stderr: str, name: str) -> str:
    lines = [line for line in stderr.splitlines() if name in line]
    assert len(lines) == 1, f"want one stderr line naming {name!r}, got:\n{stderr}"
    return lines[0]


# ----------------------------------------------------------------------------------------------- core

# (source, the line the error is on). Syntax errors must name that line and say what is wrong, in one line.
SYNTAX_ERRORS = {
    "python2_print": ('import torch\nprint "hi"\nx[0] = 1\n', 2),
    "python2_exec": ('import torch\nx = 1\nexec "x = 2"\nx += 1\n', 3),
    "python2_backticks": ("import torch\nx = `1`\nx += 1\n", 2),
    "python2_octal": ("import torch\nx = 0777\nx += 1\n", 2),
    "unterminated_string": ('import torch\nx = "abc\nx += 1\n', 2),
    "unterminated_triple_quote": ('import torch\nx = 1\ny = """abc\nx += 1\n', 3),
    "assign_to_literal": ("import torch\n1 = x\nx += 1\n", 2),
    "unclosed_paren": ("import torch\nx = torch.ones(3\nx += 1\n", 2),
    "bad_dedent": ("import torch\ndef f(a):\n    b = a ** 2\n  b *= b\n", 4),
    "unexpected_indent": ("import torch\nx = 1\n    x += 1\n", 3),
    "augassign_to_call": ("import torch\nx = 1\nf() += 1\n", 3),
    "continuation_at_eof": ("import torch\nx = 1\nx += 1 \\", 3),
}


@pytest.mark.parametrize("name", sorted(SYNTAX_ERRORS))
def test_syntax_error_is_one_lint_error(name):
    source, _ = SYNTAX_ERRORS[name]
    with pytest.raises(LintError) as info:
        lint_source(source)
    message = str(info.value)
    assert message and "\n" not in message, repr(message)
    assert message.startswith("cannot parse"), message


@pytest.mark.parametrize("name", sorted(SYNTAX_ERRORS))
def test_syntax_error_names_the_right_line_and_a_reason(name):
    """LibCST's native parser reports tokenizer errors at 1:1 and parser errors a line late, with the
    reason on a second line the engine drops ("cannot parse: Syntax Error @ 3:9. (line 3)" for an error
    on line 2). CPython's parser (``ast.parse``: parsing only, nothing runs) says where and why."""
    source, line = SYNTAX_ERRORS[name]
    with pytest.raises(LintError) as info:
        lint_source(source)
    assert info.value.line == line, f"{info.value} (reported line {info.value.line}, want {line})"
    assert not str(info.value).startswith("cannot parse: Syntax Error @"), f"no reason given: {info.value}"


VALID_NEWER_SYNTAX = {
    # each embeds the seed hazard after a construct of a recent Python version
    "match_3_10": "match command:\n    case [x, y]:\n        pass\n    case _:\n        pass\n",
    "except_star_3_11": "try:\n    pass\nexcept* ValueError:\n    pass\n",
    "type_params_3_12": "def first[T](xs: list[T]) -> T:\n    return xs[0]\n",
    "type_alias_3_12": "type Pair = tuple[int, int]\n",
    "fstring_quotes_3_12": 'd = {"a": 1}\ns = f"{d["a"]}"\n',
    "walrus_3_8": "if (n := 10) > 5:\n    pass\n",
    "positional_only_3_8": "def g(a, /, b, *, c):\n    return a\n",
    "parenthesized_context_managers_3_10": "with (open('a') as f, open('b') as g):\n    pass\n",
}


@pytest.mark.parametrize("name", sorted(VALID_NEWER_SYNTAX))
def test_newer_python_syntax_is_linted(name):
    source = "import torch\n" + VALID_NEWER_SYNTAX[name] + SEED.replace("import torch\n", "")
    offset = VALID_NEWER_SYNTAX[name].count("\n")
    findings = lint_source(source)
    assert [(f.code, f.start.line) for f in findings] == [("AGI001", SEED_FINDING_LINE + offset)]


@pytest.mark.parametrize(
    "source",
    ["", "\n", "   \n\n\t\n", "# just a comment\n", "\ufeff", '"""docstring only"""\n', "import torch\n"],
    ids=["empty", "newline", "blank", "comment", "bom_only", "docstring", "import_only"],
)
def test_empty_and_trivial_files_have_no_findings(source):
    assert lint_source(source) == []


def test_nul_byte_is_one_lint_error():
    with pytest.raises(LintError, match="NUL"):
        lint_source("import torch\nx = torch.ones(1)\x00\nx += 1\n")


def test_lone_surrogate_is_one_lint_error():
    with pytest.raises(LintError):
        lint_source('import torch\nx = "\ud800"\nx += 1\n')


@pytest.mark.parametrize("newline", ["\r\n", "\r"], ids=["crlf", "cr"])
def test_other_line_endings_give_the_same_findings(newline):
    findings = lint_source(SEED.replace("\n", newline))
    assert [(f.code, f.start.line) for f in findings] == [("AGI001", SEED_FINDING_LINE)]


def test_form_feed_and_tabs():
    source = "import torch\n\x0c\ndef fn(a):\n\tb = a ** 2\n\tfor i in range(5):\n\t\tb *= b\n\treturn b\n"
    assert [(f.code, f.start.line) for f in lint_source(source)] == [("AGI001", 6)]


# --- 1,000-deep nesting, in a subprocess (a C stack overflow would kill the interpreter) -----------------

_DEEP_RUNNER = textwrap.dedent(
    """
    import json, sys
    from inplace_lint.engine.core import LintError, lint_source
    from inplace_lint.model.findings import LintOptions

    def lint(path):
        source = open(path, encoding="utf-8").read()
        calls = [0]

        def count(frame, event, arg):
            if event == "call":
                calls[0] += 1

        sys.setprofile(count)
        try:
            findings = lint_source(source, "<string>", LintOptions(assume_params_are_tensors=True))
            result = {"status": "ok", "findings": [[f.code, f.start.line] for f in findings]}
        except LintError as error:
            result = {"status": "lint_error", "message": str(error)}
        finally:
            sys.setprofile(None)
        result["calls"] = calls[0]
        return result

    print(json.dumps([lint(path) for path in sys.argv[1:]]))
    """
)


def _indented(header: str, depth: int, body: str, prefix: str = "") -> str:
    lines = [prefix + " " * i + header.format(i=i) for i in range(depth)]
    lines.extend(prefix + " " * depth + line for line in body.splitlines())
    return "\n".join(lines) + "\n"


_FN = "import torch\ndef f(a):\n"


def _deep(kind: str, n: int) -> str:
    if kind == "parens":
        return _FN + "    b = a.exp()\n    c = " + "(" * n + "b" + ")" * n + "\n    b += 1\n    return c\n"
    if kind == "lists":
        return "import torch\nx = " + "[" * n + "1" + "]" * n + "\nx[0] = 1\n"
    if kind == "nested_calls":
        return _FN + "    b = " + "torch.exp(" * n + "a" + ")" * n + "\n    b += 1\n    return b\n"
    if kind == "method_chain":
        return _FN + "    b = a.exp()\n    c = b" + ".add_(1)" * n + "\n    return c\n"
    if kind == "binary_ops":
        return _FN + "    b = a.exp()\n    c = " + " + ".join(["b"] * n) + "\n    b += 1\n    return c\n"
    if kind == "unary_ops":
        return _FN + "    b = " + "-" * n + "a.exp()\n    b += 1\n    return b\n"
    if kind == "subscripts":
        return _FN + "    b = a.exp()\n    b" + "[0]" * n + " = 1\n    return b\n"
    if kind == "lambdas":
        return "import torch\nf = " + "lambda: " * n + "1\nx = torch.ones(1)\nx += 1\n"
    if kind == "ifs":
        return _FN + "    b = a.exp()\n" + _indented("if b:", n, "b += 1", "    ") + "    return b\n"
    if kind == "fors":
        loops = _indented("for i{i} in range(2):", n, "b *= b", "    ")
        return _FN + "    b = a ** 2\n" + loops + "    return b\n"
    if kind == "withs":
        blocks = _indented("with torch.enable_grad():", n, "b += 1", "    ")
        return _FN + "    b = a.exp()\n" + blocks + "    return b\n"
    if kind == "functions":
        return "import torch\n" + _indented("def f{i}(a):", n, "b = a.exp()\nb += 1\nreturn b")
    if kind == "classes":
        body = "def forward(self, a):\n    b = a.exp()\n    b += 1\n    return b"
        return "import torch\n" + _indented("class C{i}(torch.nn.Module):", n, body)
    raise ValueError(kind)


EXPRESSION_NESTING = ["parens", "lists", "nested_calls", "method_chain", "binary_ops", "unary_ops",
                      "subscripts", "lambdas"]
# CPython allows at most 100 indentation levels ("too many levels of indentation"): 98 nested blocks in
# a function is valid code, 1,000 is a syntax error that must still be one message.
BLOCK_NESTING = ["ifs", "fors", "withs", "functions", "classes"]


def _lint_deep(tmp_path: Path, *sources: str) -> List[dict]:
    """Lint each source in one fresh interpreter (a C stack overflow would kill it): status, findings,
    and the Python calls linting made."""
    targets = []
    for index, source in enumerate(sources):
        target = tmp_path / f"deep{index}.py"
        target.write_text(source, encoding="utf-8")
        targets.append(str(target))
    runner = tmp_path / "runner.py"
    runner.write_text(_DEEP_RUNNER, encoding="utf-8")
    try:
        proc, _ = _run([PYTHON, str(runner), *targets], timeout=KILL_AFTER)
    except subprocess.TimeoutExpired:
        pytest.fail(f"linting did not finish in {KILL_AFTER} s")
    assert proc.returncode == 0, f"the interpreter died (exit {proc.returncode}):\n{proc.stderr[-3000:]}"
    _no_traceback(proc.stderr)
    return json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("kind", EXPRESSION_NESTING)
def test_1000_deep_expressions_take_bounded_work(tmp_path, kind):
    small, result = _lint_deep(tmp_path, _deep(kind, 250), _deep(kind, 1000))
    if result["status"] == "lint_error":
        assert "\n" not in result["message"] and "internal error" not in result["message"], result
    assert result["calls"] <= GROWTH * max(small["calls"], 1000), (
        f"{kind}: 4x the nesting cost {result['calls'] / max(small['calls'], 1):.1f}x the calls"
    )


def test_a_chain_longer_than_libcst_parses_quickly_is_one_lint_error(tmp_path):
    # LibCST's parse of x.add_(1).add_(1)... grows with the cube of its length (1,400 links: 4 CPU-s):
    # past LONGEST_CHAIN links the file is refused at once; a long chain of real-code length is linted
    from inplace_lint.engine.core import LONGEST_CHAIN

    def chain(calls: int) -> str:
        return _FN + "    b = a.exp()\n    c = b" + ".add_(1)" * calls + "\n    return c\n"

    calls = LONGEST_CHAIN // 2
    refused, linted = _lint_deep(tmp_path, chain(calls + 1), chain(calls - 10))
    assert refused["status"] == "lint_error", refused
    assert "\n" not in refused["message"] and "chain of more than" in refused["message"], refused
    assert linted["status"] == "ok" and linted["findings"], linted
    # refused before LibCST parses it: less work than linting the shorter chain
    assert refused["calls"] < linted["calls"], (refused["calls"], linted["calls"])


# Nested loops are analysed to a fixed point level by level: the work grows with the square of the loop
# depth (24 -> 96 nested for-loops: 9x the calls, measured), bounded by Python's 100 levels.
BLOCK_GROWTH = {"fors": 20.0}


@pytest.mark.parametrize("kind", BLOCK_NESTING)
def test_98_deep_blocks_are_linted_with_bounded_work(tmp_path, kind):
    small, result = _lint_deep(tmp_path, _deep(kind, 24), _deep(kind, 96))
    assert result["status"] == "ok", result
    assert result["findings"], f"{kind}: the hazard in the innermost block was not reported"
    growth = BLOCK_GROWTH.get(kind, GROWTH)
    assert result["calls"] <= growth * small["calls"], (
        f"{kind}: 4x the nesting cost {result['calls'] / small['calls']:.1f}x the calls"
    )
    (deepest,) = _lint_deep(tmp_path, _deep(kind, 98))
    assert deepest["status"] == "ok" and deepest["findings"], deepest


@pytest.mark.parametrize("kind", BLOCK_NESTING)
def test_1000_deep_blocks_are_one_lint_error(tmp_path, kind):
    (result,) = _lint_deep(tmp_path, _deep(kind, 1000))
    assert result["status"] == "lint_error", result
    assert "\n" not in result["message"], result


_HAZARD_BLOCK = """
def step_{i}(a, w):
    h = torch.matmul(a, w)
    h = h + 1
    g = h.sigmoid()
    g += 1
    return g
"""


def _dense(functions: int) -> str:
    return "import torch\n" + "".join(_HAZARD_BLOCK.format(i=i) for i in range(functions))


def test_dense_hazard_file_takes_linear_work():
    """Functions of 7 lines each, every one with an in-place write to a saved result (a finding): 4x the
    functions, about 4x the work (a 20,000-line file is timed in benchmarks/pathological.py)."""
    lint_source(_dense(1))  # imports and one-off set-up are not counted
    small_calls, small = _calls(lint_source, _dense(100))
    big_calls, big = _calls(lint_source, _dense(400))
    assert (len(small), len(big)) == (100, 400)
    growth = big_calls / small_calls
    assert big_calls <= GROWTH * small_calls, f"4x the functions cost {growth:.1f}x the calls"


def test_dense_hazard_file_through_the_cli(tmp_path):
    count = 400
    target = tmp_path / "huge.py"
    target.write_text(_dense(count), encoding="utf-8")
    proc, _ = _run(CLI + ["--quiet", "--output-format", "json", str(target)])
    _no_traceback(proc.stderr)
    assert proc.returncode == 1, proc.stderr
    assert len(json.loads(proc.stdout)) == count


def test_flat_file_takes_linear_work():
    def flat(lines: int) -> str:
        return "import torch\nx = torch.zeros(3)\n" + "x += 1\n" * lines

    lint_source(flat(10))
    small_calls, small = _calls(lint_source, flat(5_000))
    big_calls, big = _calls(lint_source, flat(20_000))
    assert small == big == []
    assert big_calls <= GROWTH * small_calls, f"4x the lines cost {big_calls / small_calls:.1f}x the calls"


# ------------------------------------------------------------------------------------------------ CLI


def _bad_files(root: Path) -> dict:
    """name -> path of every kind of unlintable file (regular files only)."""
    files = {
        "syntax.py": b"import torch\ndef f(a):\n    b = a.exp(\n    b += 1\n",
        "nul.py": b"import torch\nx = 1\x00\nx += 1\n",
        "undecodable.py": b"import torch\n# \xff\xfe not utf-8\nx += 1\n",
        "unknown_codec.py": b"# -*- coding: klingon -*-\nimport torch\nx += 1\n",
        "bom_and_latin1_cookie.py": b"\xef\xbb\xbf# coding: latin-1\nimport torch\nx += 1\n",
        "binary.py": bytes(range(256)) * 8,
        "python2.py": b"import torch\nprint 'hello'\nx += 1\n",
    }
    paths = {}
    for name, data in files.items():
        path = root / name
        path.write_bytes(data)
        paths[name] = path
    return paths


def test_each_unlintable_file_is_one_line_and_exit_2_while_others_still_report(tmp_path):
    bad = _bad_files(tmp_path)
    (tmp_path / "seed.py").write_text(SEED, encoding="utf-8")
    proc, _ = _run(CLI + [str(tmp_path)])
    _no_traceback(proc.stderr + proc.stdout)
    assert proc.returncode == 2, proc.stderr
    for name in bad:
        _one_line_for(proc.stderr, name)
    assert f"seed.py:{SEED_FINDING_LINE}:" in proc.stdout


@pytest.mark.parametrize("name", ["syntax.py", "nul.py", "undecodable.py", "unknown_codec.py",
                                  "bom_and_latin1_cookie.py", "binary.py", "python2.py"])
def test_one_unlintable_file_exits_2(tmp_path, name):
    path = _bad_files(tmp_path)[name]
    proc, _ = _run(CLI + [str(path)])
    _no_traceback(proc.stderr)
    assert proc.returncode == 2
    _one_line_for(proc.stderr, name)
    assert proc.stdout.strip() == ""


def test_findings_exit_1_and_clean_exit_0(tmp_path):
    (tmp_path / "seed.py").write_text(SEED, encoding="utf-8")
    (tmp_path / "clean.py").write_text("import torch\nx = torch.ones(2)\nx += 1\n", encoding="utf-8")
    assert _run(CLI + [str(tmp_path / "seed.py")])[0].returncode == 1
    assert _run(CLI + [str(tmp_path / "clean.py")])[0].returncode == 0


def test_bom_and_latin1_cookie_files_are_linted(tmp_path):
    (tmp_path / "bom.py").write_bytes(b"\xef\xbb\xbf" + SEED.encode())
    latin = "# -*- coding: latin-1 -*-\n# caf\xe9\n" + SEED
    (tmp_path / "latin.py").write_bytes(latin.encode("latin-1"))
    proc, _ = _run(CLI + [str(tmp_path)])
    assert proc.returncode == 1, proc.stderr
    assert f"bom.py:{SEED_FINDING_LINE}:" in proc.stdout
    assert f"latin.py:{SEED_FINDING_LINE + 2}:" in proc.stdout


def test_empty_file_and_folder_without_python_files_exit_0(tmp_path):
    (tmp_path / "empty.py").write_bytes(b"")
    proc, _ = _run(CLI + [str(tmp_path / "empty.py")])
    assert proc.returncode == 0 and proc.stdout == "", proc.stderr
    folder = tmp_path / "nothing"
    (folder / "sub").mkdir(parents=True)
    (folder / "notes.txt").write_text("no python here")
    (folder / "script.pyc").write_bytes(b"\x00\x01")
    proc, _ = _run(CLI + [str(folder)])
    assert proc.returncode == 0, proc.stderr
    assert "no Python files" in proc.stderr
    _no_traceback(proc.stderr)


def test_folder_named_like_a_python_file_is_walked(tmp_path):
    folder = tmp_path / "package.py"
    folder.mkdir()
    (folder / "seed.py").write_text(SEED, encoding="utf-8")
    proc, _ = _run(CLI + [str(folder)])
    assert proc.returncode == 1, proc.stderr
    _no_traceback(proc.stderr)


def test_symlink_loops_and_dangling_links_in_a_folder(tmp_path):
    (tmp_path / "seed.py").write_text(SEED, encoding="utf-8")
    os.symlink("loop_b.py", tmp_path / "loop_a.py")
    os.symlink("loop_a.py", tmp_path / "loop_b.py")
    os.symlink("missing.py", tmp_path / "dangling.py")
    os.symlink(".", tmp_path / "self_dir")  # a folder loop: must not be walked forever
    proc, _ = _run(CLI + [str(tmp_path)], timeout=KILL_AFTER)
    _no_traceback(proc.stderr)
    assert f"seed.py:{SEED_FINDING_LINE}:" in proc.stdout
    assert proc.stdout.count("seed.py:") == 1, "the folder symlink loop was walked"
    for name in ("loop_a.py", "loop_b.py", "dangling.py"):
        assert len([line for line in proc.stderr.splitlines() if name in line]) <= 1, proc.stderr


def test_symlink_loop_named_on_the_command_line_is_called_a_loop(tmp_path):
    """``Path.exists()`` is False for a symlink loop, so the CLI says "no such file or directory"
    about a path that does exist (as a link); the message should say what is wrong."""
    os.symlink("loop.py", tmp_path / "loop.py")
    proc, _ = _run(CLI + [str(tmp_path / "loop.py")])
    _no_traceback(proc.stderr)
    assert proc.returncode == 2
    line = _one_line_for(proc.stderr, "loop.py")
    assert "symbolic link" in line or "symlink" in line, line


_UNREADABLE_RUNNER = textwrap.dedent(
    """
    import pathlib, runpy, sys
    real = pathlib.Path.read_bytes
    def read_bytes(self):
        if self.name == "secret.py":
            raise PermissionError(13, "Permission denied", str(self))
        return real(self)
    pathlib.Path.read_bytes = read_bytes
    sys.argv = ["inplace-lint", "check"] + sys.argv[1:]
    runpy.run_module("inplace_lint", run_name="__main__")
    """
)


def test_unreadable_file(tmp_path):
    """We run as root, so chmod 000 does not stop reads (and no other user can run this venv's python):
    the CLI runs with ``Path.read_bytes`` raising EACCES for that one file, as it would for a user."""
    secret = tmp_path / "secret.py"
    secret.write_text(SEED, encoding="utf-8")
    secret.chmod(0)
    (tmp_path / "seed.py").write_text(SEED, encoding="utf-8")
    proc, _ = _run([PYTHON, "-c", _UNREADABLE_RUNNER, str(tmp_path)])
    _no_traceback(proc.stderr)
    assert proc.returncode == 2
    assert "Permission denied" in _one_line_for(proc.stderr, "secret.py")
    assert f"seed.py:{SEED_FINDING_LINE}:" in proc.stdout


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
@pytest.mark.parametrize("named", [False, True], ids=["in_folder", "on_command_line"])
def test_fifo_named_like_a_python_file_does_not_hang(tmp_path, named):
    """A FIFO (or socket, device) ending in .py: reading it blocks forever. Such files are not
    regular files and must be skipped in a walk (or named as unreadable), not read."""
    (tmp_path / "seed.py").write_text(SEED, encoding="utf-8")
    os.mkfifo(tmp_path / "pipe.py")
    target = tmp_path / "pipe.py" if named else tmp_path
    try:
        proc, _ = _run(CLI + [str(target)])
    except subprocess.TimeoutExpired:
        pytest.fail("the CLI blocked reading a FIFO named pipe.py")
    _no_traceback(proc.stderr)
    if named:
        assert proc.returncode == 2
        _one_line_for(proc.stderr, "pipe.py")


def test_stdin_with_bad_bytes(tmp_path):
    proc = subprocess.run(CLI + ["-"], input=b"import torch\nx = 1\x00\nx += 1\n", capture_output=True,
                          timeout=KILL_AFTER)
    stderr = proc.stderr.decode(errors="replace")
    _no_traceback(stderr)
    assert proc.returncode == 2
    assert len(stderr.strip().splitlines()) == 1, stderr


# ---------------------------------------------------------------------------------------------- flake8


def test_flake8_run_is_never_aborted_by_bad_files(tmp_path):
    pytest.importorskip("flake8")
    _bad_files(tmp_path)
    (tmp_path / "seed.py").write_text(SEED, encoding="utf-8")
    (tmp_path / "deep.py").write_text(_deep("parens", 200), encoding="utf-8")
    os.symlink("missing.py", tmp_path / "dangling.py")
    proc, _ = _run([PYTHON, "-m", "flake8", "--select=AGI,E999,E902", "--jobs=1", str(tmp_path)])
    output = proc.stdout + proc.stderr
    assert "Traceback" not in output and "critical error" not in output.lower(), output
    assert "internal error" not in output, output
    assert f"seed.py:{SEED_FINDING_LINE}:9: AGI001" in proc.stdout, output
    assert proc.returncode == 1, output


# ------------------------------------------------------------------- the linted code is never executed


_BOOBY_TRAP = textwrap.dedent(
    """
    import os, sys
    import torch
    open({marker!r}, "w").write("imported")
    os.system("touch " + {marker!r} + ".system")
    sys.exit(3)
    while True:
        pass

    def fn(a):
        b = a ** 2
        for i in range(5):
            b *= b
        return b

    class Sneaky(type):
        def __getattr__(cls, name):
            open({marker!r} + ".getattr", "w").write(name)

    if __name__ == "__main__":
        open({marker!r} + ".main", "w").write("ran")
    """
)


def test_the_linted_code_is_never_executed_or_imported(tmp_path):
    marker = tmp_path / "marker"
    work = tmp_path / "work"
    work.mkdir()
    trap = work / "trap.py"
    trap.write_text(_BOOBY_TRAP.format(marker=str(marker)), encoding="utf-8")
    # A local torch.py next to the linted file: importing torch from the file's folder would run it.
    (work / "torch.py").write_text(f"open({str(marker)!r} + '.torch', 'w').write('x')\n", encoding="utf-8")
    (work / "conftest.py").write_text(f"open({str(marker)!r} + '.conftest', 'w').write('x')\n")

    findings = lint_source(trap.read_text(encoding="utf-8"), str(trap))  # no SystemExit, no hang
    assert [f.code for f in findings] == ["AGI001"]
    proc, _ = _run(CLI + [str(work)], cwd=work, timeout=KILL_AFTER)
    _no_traceback(proc.stderr)
    assert "trap.py:13:" in proc.stdout, proc.stdout + proc.stderr
    if __import__("importlib").util.find_spec("flake8"):
        proc, _ = _run([PYTHON, "-m", "flake8", "--select=AGI", "--inplace-lint-assume-params-are-tensors=true",
                        str(work)], cwd=work)  # see ASSUMED
        assert "trap.py:13:" in proc.stdout, proc.stdout + proc.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["work"], "the linted code ran"


# ------------------------------------------------------------------------------------------------ LSP
# tests/test_lsp.py covers malformed params, an unknown request and notification, a non-JSON body, code
# actions and hover for an unopened document, and 50 appended edits with the fake analysis. Here: the
# notifications for unopened documents and 1,000 rapid random edits with the real analysis.


def test_lsp_survives_unopened_notifications_and_1000_random_edits(tmp_path):
    pytest.importorskip("pytest_lsp")
    import asyncio
    import random as _random

    from lsprotocol import types
    from pytest_lsp import ClientServerConfig, client_capabilities

    async def scenario():
        client = await ClientServerConfig(server_command=[PYTHON, "-m", "inplace_lint", "lsp"]).start()
        try:
            await client.initialize_session(types.InitializeParams(
                capabilities=client_capabilities("neovim"), root_uri=tmp_path.as_uri()))
            ghost = (tmp_path / "ghost.py").as_uri()
            ident = types.VersionedTextDocumentIdentifier(uri=ghost, version=2)
            client.text_document_did_change(types.DidChangeTextDocumentParams(
                text_document=ident,
                content_changes=[types.TextDocumentContentChangeWholeDocument(text=SEED)]))
            client.text_document_did_save(types.DidSaveTextDocumentParams(
                text_document=types.TextDocumentIdentifier(uri=ghost)))
            client.text_document_did_close(types.DidCloseTextDocumentParams(
                text_document=types.TextDocumentIdentifier(uri=ghost)))

            path = tmp_path / "edited.py"
            path.write_text(SEED, encoding="utf-8")
            uri = path.as_uri()
            item = types.TextDocumentItem(uri=uri, language_id="python", version=1, text=SEED)
            client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=item))
            rng = _random.Random(7)
            pieces = ["b *= b\n", "x.add_(1)", "(", ")", ":", "\n    ", "\x00", "é", "😀", "'",
                      "import torch\n"]
            text = SEED
            for version in range(2, 1002):
                at = rng.randrange(len(text) + 1)
                if rng.random() < 0.3 and text:
                    end = min(len(text), at + rng.randrange(1, 8))
                    text = text[:at] + text[end:]
                else:
                    text = text[:at] + rng.choice(pieces) + text[at:]
                client.text_document_did_change(types.DidChangeTextDocumentParams(
                    text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                    content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)]))
            client.text_document_did_change(types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=1002),
                content_changes=[types.TextDocumentContentChangeWholeDocument(text=SEED)]))
            loop = asyncio.get_running_loop()
            deadline = loop.time() + KILL_AFTER
            while loop.time() < deadline:
                diagnostics = client.diagnostics.get(uri)
                lines = [d.range.start.line for d in diagnostics or []]
                if diagnostics is not None and lines == [SEED_FINDING_LINE - 1]:
                    break
                await asyncio.sleep(0.05)
            else:
                pytest.fail(f"no diagnostics for the final text; last: {client.diagnostics.get(uri)}")
            hover = await client.text_document_hover_async(types.HoverParams(
                text_document=types.TextDocumentIdentifier(uri=ghost),
                position=types.Position(line=0, character=0)))
            assert hover is None
            await client.shutdown_session()
        finally:
            await client.stop()

    asyncio.run(scenario())
