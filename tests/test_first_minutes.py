"""What a new user meets first, through the real entry point (``python -m inplace_lint`` as a subprocess):
the default path, the summary and fix counts, the ``full`` format and color, quiet pipes and Ctrl-C,
``--watch``. Each test runs the real analysis on the seed hazard (examples/seed.py's shape)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

PYTHON = sys.executable
SEED = textwrap.dedent("""\
    import torch
    def fn(a):
        b = a ** 2
        for i in range(5):
            b *= b
        return b
    fn(torch.tensor(5.0, requires_grad=True)).backward()  # the evidence that a requires grad
    """)


def cli(*args, cwd, env=None, stdin=None, timeout=120):
    """Run the command as a user would; color and TTY detection see a pipe unless ``env`` says otherwise."""
    full_env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR", "PYTHONPATH")}
    full_env["INPLACE_LINT_CACHE_DIR"] = str(Path(cwd) / ".test-cache")
    full_env.update(env or {})
    return subprocess.run(
        [PYTHON, "-m", "inplace_lint", *args], cwd=cwd, env=full_env, capture_output=True, text=True,
        input=stdin, timeout=timeout,
    )


@pytest.fixture
def project(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.inplace-lint]\nselect = ['AGI']\n", encoding="utf-8")
    return tmp_path


# --- 1. no path checks ".", skipping the usual folders and what .gitignore ignores ----------------------


def test_no_path_checks_the_working_directory(project):
    (project / "seed.py").write_text(SEED, encoding="utf-8")
    for folder in (".git", ".venv", "venv", "build", "dist", "__pycache__", "node_modules", "pkg/build"):
        (project / folder).mkdir(parents=True)
        (project / folder / "hidden.py").write_text(SEED, encoding="utf-8")
    (project / "pkg" / "mod.py").write_text(SEED, encoding="utf-8")
    (project / "generated").mkdir()
    (project / "generated" / "out.py").write_text(SEED, encoding="utf-8")
    (project / "scratch_1.py").write_text(SEED, encoding="utf-8")
    (project / ".gitignore").write_text("# generated code\n/generated/\nscratch_*.py\n", encoding="utf-8")
    proc = cli("--output-format", "json", cwd=project)
    assert proc.returncode == 1, proc.stderr
    assert sorted(f["filename"] for f in json.loads(proc.stdout)) == ["pkg/mod.py", "seed.py"]
    proc = cli("--output-format", "json", "--no-respect-gitignore", cwd=project)
    assert sorted(f["filename"] for f in json.loads(proc.stdout)) == [
        "generated/out.py", "pkg/mod.py", "scratch_1.py", "seed.py"
    ]
    # named explicitly, an ignored file is linted (as Ruff does)
    proc = cli("--output-format", "json", "scratch_1.py", cwd=project)
    assert [f["filename"] for f in json.loads(proc.stdout)] == ["scratch_1.py"]


def test_a_negating_gitignore_is_not_used(project):
    (project / "keep.py").write_text(SEED, encoding="utf-8")
    (project / ".gitignore").write_text("*.py\n!keep.py\n", encoding="utf-8")
    proc = cli("--output-format", "json", cwd=project)
    assert [f["filename"] for f in json.loads(proc.stdout)] == ["keep.py"]


def test_no_python_files_stays_a_clear_message(project):
    proc = cli(cwd=project)
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "", "inplace-lint: no Python files to check\n")


# --- 3. unsafe fixes are named in the summary, --diff/--fix count them, --show-fixes lists them -----------

# y is read through the view z after the write, so rewriting it out of place is unsafe
UNSAFE = textwrap.dedent("""\
    import torch
    def f(x):
        y = x.exp()
        z = y[0]
        y.add_(1)
        return y, z
    y, z = f(torch.randn(3, requires_grad=True))
    """)


@pytest.fixture
def two_fixes(project):
    (project / "seed.py").write_text(SEED, encoding="utf-8")
    (project / "views.py").write_text(UNSAFE, encoding="utf-8")
    return project


def test_summary_names_safe_and_unsafe_fixes(two_fixes):
    proc = cli("--output-format", "concise", cwd=two_fixes)
    assert proc.returncode == 1
    assert proc.stderr.splitlines() == [
        "Found 2 findings.",
        "[*] 1 fixable with --fix (1 unsafe fix available with --fix --unsafe-fixes).",
    ]
    proc = cli("--output-format", "concise", "views.py", cwd=two_fixes)
    assert proc.stderr.splitlines() == [
        "Found 1 finding.",
        "No safe fixes (1 unsafe fix available with --fix --unsafe-fixes).",
    ]
    proc = cli("--output-format", "concise", "--unsafe-fixes", cwd=two_fixes)
    assert proc.stderr.splitlines() == ["Found 2 findings.", "[*] 2 fixable with --fix --unsafe-fixes."]


def test_diff_and_fix_count_unsafe_fixes_only_when_asked(two_fixes):
    proc = cli("--diff", "views.py", cwd=two_fixes)
    assert (proc.returncode, proc.stdout) == (0, "")
    assert proc.stderr == (
        "Would fix 0 findings in 0 files, 1 remaining (1 unsafe fix available with --diff --unsafe-fixes).\n"
    )
    proc = cli("--diff", "--unsafe-fixes", cwd=two_fixes)
    assert proc.returncode == 1
    diff_lines = proc.stdout.splitlines()
    assert "+    y = y.add(1)" in diff_lines and "+        b = b * b" in diff_lines
    assert proc.stderr == "Would fix 2 findings in 2 files, 0 remaining.\n"
    assert (two_fixes / "views.py").read_text(encoding="utf-8") == UNSAFE
    proc = cli("--fix", cwd=two_fixes)
    assert proc.stderr == "Fixed 1 finding, 1 remaining (1 unsafe fix available with --fix --unsafe-fixes).\n"
    proc = cli("--fix", "--unsafe-fixes", cwd=two_fixes)
    assert (proc.returncode, proc.stderr) == (0, "Fixed 1 finding, 0 remaining.\n")
    assert "    y = y.add(1)\n" in (two_fixes / "views.py").read_text(encoding="utf-8")


def test_show_fixes(two_fixes):
    proc = cli("--output-format", "concise", "--show-fixes", cwd=two_fixes)
    assert proc.stdout.splitlines()[2:] == [
        "Fixes available:",
        "seed.py:5:9: AGI001 [safe] Write 'b = b * b'",
        "views.py:5:5: AGI001 [unsafe] Write 'y = y.add(1)'",
    ]
    proc = cli("--fix", "--unsafe-fixes", "--show-fixes", cwd=two_fixes)
    assert proc.stdout == (
        "Fixed 2 findings:\n"
        "- seed.py:\n    1 × AGI001 (saved-tensor-modified-inplace)\n"
        "- views.py:\n    1 × AGI001 (saved-tensor-modified-inplace)\n"
    )


# --- 4. the full format, color, the top-level help -------------------------------------------------------

SNAPSHOTS = Path(__file__).parent / "data" / "snapshots"


def _matches_snapshot(name: str, text: str) -> None:
    """Compare with tests/data/snapshots/NAME; INPLACE_LINT_UPDATE_SNAPSHOTS=1 rewrites it instead."""
    path = SNAPSHOTS / name
    if os.environ.get("INPLACE_LINT_UPDATE_SNAPSHOTS"):
        SNAPSHOTS.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8"), f"differs from {path}"


@pytest.mark.parametrize("color", ["never", "always"])
def test_full_format_snapshot(two_fixes, color):
    proc = cli("--output-format", "full", "--color", color, cwd=two_fixes)
    assert proc.returncode == 1
    _matches_snapshot(f"full-{color}.txt", proc.stdout)
    assert ("\033[" in proc.stdout) == (color == "always")


def _on_a_terminal(args, cwd, env=None):
    """Run the command with stdout and stderr on a pseudo-terminal; return (exit code, what it showed)."""
    pty = pytest.importorskip("pty")
    leader, follower = pty.openpty()
    full_env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR", "PYTHONPATH")}
    full_env.update(env or {}, INPLACE_LINT_CACHE_DIR=str(Path(cwd) / ".test-cache"))
    proc = subprocess.Popen([PYTHON, "-m", "inplace_lint", *args], cwd=cwd, env=full_env,
                            stdin=subprocess.DEVNULL, stdout=follower, stderr=follower)
    os.close(follower)
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # EIO: the child closed the terminal
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(leader)
    return proc.wait(timeout=120), b"".join(chunks).decode("utf-8").replace("\r\n", "\n")


def test_full_and_color_are_the_default_on_a_terminal_only(two_fixes):
    code, shown = _on_a_terminal(["seed.py"], two_fixes)
    assert code == 1
    assert "\033[1;31mAGI001" in shown and "\033[1;36mhelp:\033[0m Write 'b = b * b'" in shown
    code, shown = _on_a_terminal(["seed.py"], two_fixes, env={"NO_COLOR": "1"})
    assert "\033[" not in shown and "  = help: Write 'b = b * b'" in shown
    code, shown = _on_a_terminal(["--color", "always", "seed.py"], two_fixes, env={"NO_COLOR": "1"})
    assert "\033[1;31mAGI001" in shown
    # a pipe: concise, no color, unless asked
    piped = cli("seed.py", cwd=two_fixes).stdout
    assert piped.startswith("seed.py:5:9: AGI001 '*=' modifies") and len(piped.splitlines()) == 1
    forced = cli("--output-format", "full", "seed.py", cwd=two_fixes, env={"FORCE_COLOR": "1"}).stdout
    assert "\033[1;31mAGI001" in forced
    code, shown = _on_a_terminal([], _clean(two_fixes))
    assert (code, shown) == (0, "All checks passed!\n")


def _clean(project: Path) -> Path:
    clean = project / "clean"
    clean.mkdir()
    (clean / "ok.py").write_text("import torch\nb = torch.ones(3)\nb = b * b\n", encoding="utf-8")
    return clean


def test_top_level_help_shows_the_check_flags(tmp_path):
    proc = cli("--help", cwd=tmp_path)
    assert proc.returncode == 0
    for flag in ("--fix", "--unsafe-fixes", "--diff", "--show-fixes", "--output-format", "--color",
                 "--select", "rule", "lsp"):
        assert flag in proc.stdout, flag


# --- 5. a closed pipe and Ctrl-C are quiet in every subcommand ---------------------------------------------


def _with_closed_stdout(args, cwd, stdin=b""):
    """Run with stdout a pipe nobody reads (its reading end closed first): every write fails at once."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        proc = subprocess.run([PYTHON, "-m", "inplace_lint", *args], cwd=cwd, stdout=write_end,
                              stderr=subprocess.PIPE, input=stdin, timeout=120)
    finally:
        os.close(write_end)
    return proc.returncode, proc.stderr.decode("utf-8", "replace")


def _lsp_message(payload: dict) -> bytes:
    body = json.dumps(payload).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}


@pytest.mark.parametrize(
    "args",
    [["rule", "AGI001"], ["rule", "--all"], ["--help"], ["seed.py"], ["--output-format", "full", "seed.py"],
     ["--output-format", "json", "seed.py"], ["--statistics", "seed.py"], ["lsp"]],
    ids=lambda args: "_".join(args).strip("-"),
)
def test_closed_pipe_is_quiet(two_fixes, args):
    stdin = _lsp_message(INITIALIZE) if args == ["lsp"] else b""
    code, stderr = _with_closed_stdout(args, two_fixes, stdin=stdin)
    assert "Traceback" not in stderr and "Exception ignored" not in stderr, stderr
    # the language server's client went away without shutdown and exit: 1, as the protocol says
    assert code in ((0, 1, 2) if args == ["lsp"] else (0, 2)), (code, stderr)


def _blocked_reading(pid: int) -> bool:
    """Whether the process sleeps in a pipe read (it got past its imports and waits for stdin)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat, open(f"/proc/{pid}/wchan") as wchan:
            return stat.read().rsplit(")", 1)[1].split()[0] == "S" and "pipe" in wchan.read()
    except OSError:
        return False


@pytest.mark.skipif(not Path("/proc/self/wchan").exists(), reason="needs Linux's /proc")
def test_ctrl_c_while_checking_stdin_exits_130_quietly(project):
    import signal
    import time

    proc = subprocess.Popen([PYTHON, "-m", "inplace_lint", "-"], cwd=project, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    # a state to wait for, not a time: three looks in a row (50 ms apart) find it blocked reading stdin
    seen = 0
    for _ in range(6000):
        seen = seen + 1 if _blocked_reading(proc.pid) else 0
        if seen == 3:
            break
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    assert (proc.returncode, out, err) == (130, b"", b"")


def test_ctrl_c_stops_the_language_server_with_130_quietly(project):
    import signal

    proc = subprocess.Popen([PYTHON, "-m", "inplace_lint", "lsp"], cwd=project, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdin.write(_lsp_message(INITIALIZE))
    proc.stdin.flush()
    header = proc.stdout.readline()  # the answer to initialize: the server is serving
    assert header.startswith(b"Content-Length:"), header
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130 and b"Traceback" not in err, err


def test_rule_pages_show_their_example_near_the_top():
    """A reader meets the example within the first screen (generated from the rule modules' docstrings)."""
    pages = Path(__file__).resolve().parents[1] / "docs" / "rules"
    for page in sorted(pages.glob("AGI*.md")):
        lines = page.read_text(encoding="utf-8").splitlines()
        assert lines.index("## Example") < 30, page.name
        assert len(lines) <= 120, f"{page.name}: {len(lines)} lines"


# --- 6. --watch, and the progress line of a long run --------------------------------------------------------


def _read_until(stream, text: str, lines: list) -> None:
    """Read lines of ``stream`` into ``lines`` until one contains ``text`` (a state, not a time)."""
    for line in iter(stream.readline, ""):
        lines.append(line)
        if text in line:
            return
    raise AssertionError(f"the stream ended before {text!r}: {''.join(lines)}")


def _watching(project, *args):
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR", "PYTHONPATH")}
    env["INPLACE_LINT_CACHE_DIR"] = str(project / ".test-cache")
    return subprocess.Popen([PYTHON, "-m", "inplace_lint", "--watch", *args], cwd=project, env=env,
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)


def test_watch_checks_again_after_a_change(project):
    (project / "seed.py").write_text(SEED, encoding="utf-8")
    proc = _watching(project, "--output-format", "concise", "--watch-rounds", "2")
    err: list = []
    _read_until(proc.stderr, "Watching for changes", err)
    (project / "seed.py").write_text(SEED.replace("b *= b", "b = b * b  # fixed"), encoding="utf-8")
    out, rest = proc.communicate(timeout=120)
    err.append(rest)
    assert proc.returncode == 0, "".join(err)
    assert out.count("seed.py:5:9: AGI001") == 1  # the first check only
    stderr = "".join(err)
    assert stderr.count("Checking") == 2 and "Checking again" in stderr
    assert stderr.count("All checks passed!") == 1 and stderr.count("Found 1 finding.") == 1
    assert any((project / ".test-cache").iterdir()), "the watch's checks go through the cache"


def test_ctrl_c_ends_watching_with_0(project):
    import signal

    (project / "seed.py").write_text(SEED, encoding="utf-8")
    proc = _watching(project)
    _read_until(proc.stderr, "Watching for changes", [])
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 0 and "Traceback" not in err, err


def test_progress_line_only_after_two_seconds_and_cleared():
    import io

    from inplace_lint.adapters.terminal import Progress

    now = [0.0]
    stream = io.StringIO()
    progress = Progress(3, stream, enabled=True, clock=lambda: now[0])
    progress.step()
    now[0] = 1.9
    progress.step()
    assert stream.getvalue() == ""  # a short run shows nothing
    now[0] = 2.5
    progress.step()
    assert stream.getvalue() == "\rChecked 3/3 files"
    progress.finish()
    assert stream.getvalue().endswith("\r\033[K")
    off = io.StringIO()
    quiet = Progress(3, off)  # not a terminal
    now[0] = 10.0
    quiet.step()
    quiet.finish()
    assert off.getvalue() == ""


# --- 9. the smaller points --------------------------------------------------------------------------------


def test_diff_with_a_machine_format_is_refused_with_one_message(two_fixes):
    for output_format in ("json", "sarif", "github"):
        proc = cli("--diff", "--output-format", output_format, cwd=two_fixes)
        assert (proc.returncode, proc.stdout) == (2, ""), output_format
        assert proc.stderr == (
            f"inplace-lint: error: --diff prints a unified diff; it cannot be combined with --output-format "
            f"{output_format} (--fix --output-format {output_format} reports what remains)\n"
        )
    assert cli("--diff", "--output-format", "concise", cwd=two_fixes).returncode == 1


def test_an_optimizer_step_between_backwards_gets_advice(project):
    fixtures = Path(__file__).parent / "fixtures"
    gan = fixtures / "AGI001" / "gan_step_between_backwards.py"
    proc = cli("--output-format", "json", str(gan), cwd=project)
    (finding,) = json.loads(proc.stdout)
    assert finding["fix"] is None  # the parameters have to change in place: advice instead of a fix
    assert finding["message"].endswith(
        "Call 'opt_d.step()' after the last backward that needs the old parameters, or run the forward pass "
        "again after it (a GAN: the discriminator's loss on D(fake.detach()), the generator's on a new "
        "D(fake) computed after the discriminator's step)."
    )
    # what the advice describes is the safe fixture torch runs (tests/test_fixtures_runtime.py)
    proc = cli("--output-format", "json", str(fixtures / "safe" / "gan_correct_step.py"), cwd=project)
    assert json.loads(proc.stdout) == []


def _page_blocks(code: str):
    page = (Path(__file__).resolve().parents[1] / "docs" / "rules" / f"{code}.md").read_text(encoding="utf-8")
    example = page.split("## Example\n```python\n", 1)[1].split("```", 1)[0]
    instead = page.split("## Use instead\n```python\n", 1)[1].split("```", 1)[0]
    return example, instead


def test_agi004_doc_example_is_self_contained():
    """The example runs as it stands: torch raises what the rule says, the fixed version runs, and the
    linter flags the one and not the other."""
    pytest.importorskip("torch")
    from inplace_lint import lint_source

    example, instead = _page_blocks("AGI004")
    assert [f.code for f in lint_source(example)] == ["AGI004"]
    assert lint_source(instead) == []
    refused = "A view was created in no_grad mode and is being modified inplace"
    with pytest.raises(RuntimeError, match=refused):
        exec(compile(example, "AGI004 example", "exec"), {})
    exec(compile(instead, "AGI004 use instead", "exec"), {})
