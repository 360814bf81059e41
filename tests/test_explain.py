"""``inplace-lint explain``: run under torch, it names the marked line on every raising fixture, and on
every safe fixture adds nothing and changes nothing.

The fixtures run in runner subprocesses (``eval/explain_eval.py --runner``: many programs per process,
torch imported once), each as ``python FIXTURE`` runs it (its ``__main__`` block; the few without one
call ``run()`` inside ``with inplace_lint.explain():``), first plain, then as ``inplace-lint explain``
runs it. The command-line tests run the real command in a subprocess.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import fixture_support as fs

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from eval import explain_eval  # noqa: E402

FIXTURES = fs.discover()
HAS_TORCH = importlib.util.find_spec("torch") is not None
needs_torch = pytest.mark.skipif(not HAS_TORCH, reason="torch is not installed")


def _ids(fixture):
    return fixture.id


@pytest.fixture(scope="session")
def explained(request, tmp_path_factory):
    """Every selected fixture, plain and explained, once per test run (shared by xdist workers)."""
    wanted = sorted({str(item.callspec.params["fixture"].path.resolve()) for item in request.session.items
                     if item.module.__name__ == __name__ and getattr(item, "callspec", None) is not None
                     and "fixture" in item.callspec.params})

    def run():  # the static check is tested below, on a few programs: here it would only cost time
        return explain_eval.run_programs([Path(p) for p in wanted], jobs=2, timeout=30, static_check=False)

    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return run()
    import fcntl

    shared = tmp_path_factory.getbasetemp().parent
    key = hashlib.sha256("\n".join(wanted).encode()).hexdigest()[:16]
    data = shared / f"fixture-explain-{key}.json"
    with open(shared / f"fixture-explain-{key}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if data.exists():
            return json.loads(data.read_text(encoding="utf-8"))
        results = run()
        data.write_text(json.dumps(results), encoding="utf-8")
        return results


@needs_torch
@pytest.mark.parametrize("fixture", FIXTURES, ids=_ids)
def test_explain_names_the_marked_line(fixture, explained):
    path = str(fixture.path.resolve())
    record = explained[path]
    assert not record.get("crashed"), record.get("stderr")
    plain, traced = record["plain"], record["traced"]
    assert not plain["timeout"] and not traced["timeout"]
    if fixture.codes:
        assert plain["kind"] in fixture.codes, f"the fixture did not raise: {plain['stderr'][-500:]}"
        assert traced["kind"] == plain["kind"], "the tracer changed the error"
        assert traced["status"] == plain["status"] == 1
        assert len(traced["reports"]) == 1, traced["stderr"][-2000:]
        verdict = explain_eval.verdict(path, record)
        assert verdict == "found", (
            f"explain blamed {traced['blamed']}, markers on {sorted(fixture.marker_lines)}:\n"
            f"{traced['reports'][0]}"
        )
        # the explanation comes before torch's traceback
        stderr = traced["stderr"]
        assert stderr.index("inplace-lint explain:") < stderr.index("Traceback")
    else:
        assert plain["kind"] is None and plain["status"] == 0, plain["stderr"][-500:]
        assert explain_eval.verdict(path, record) == "clean"
        assert traced["reports"] == [] and "inplace-lint explain" not in traced["stderr"]
        assert traced["stdout"] == plain["stdout"] and traced["status"] == 0


# --- the command ------------------------------------------------------------------------------------


def _explain(*args, cwd=None, env=None):
    return subprocess.run([sys.executable, "-m", "inplace_lint", "explain", *map(str, args)],
                          capture_output=True, text=True, cwd=cwd, env=env, timeout=120)


def _write(tmp_path, name, source):
    path = tmp_path / name
    path.write_text(textwrap.dedent(source), encoding="utf-8")
    return path


@needs_torch
def test_command_report_static_verdict_and_exit_status(tmp_path):
    seen = _write(tmp_path, "seen.py", """\
        import torch

        x = torch.randn(4, requires_grad=True)
        h = x * 2
        y = h.sin()
        h.mul_(3)
        y.sum().backward()
        """)
    run = _explain(seen)
    assert run.returncode == 1
    head = run.stderr.split("Traceback")[0]
    assert f"{seen}:6:1: AGI001 Tensor.mul_ modified in place a tensor that Tensor.sin on line 5" in head
    assert "saved by Tensor.sin" in head and "float32[4], saved at version 0, version 1 at backward" in head
    assert "static check: found by AGI001" in head and "fix: Write 'h = h.mul(3)'" in head
    assert "docs/rules/AGI001.md" in head
    assert run.stderr.rstrip().splitlines()[-1].startswith("RuntimeError: one of the variables needed")
    assert "inplace_lint" not in run.stderr.split("Traceback")[1]  # the runner's frames are not shown

    # the write hidden from the linter behind getattr: the report says the static check misses it
    hidden = _write(tmp_path, "hidden.py", """\
        import torch

        x = torch.randn(4, requires_grad=True)
        h = x * 2
        y = h.sin()
        getattr(h, "mul_")(3)
        y.sum().backward()
        """)
    run = _explain(hidden)
    assert run.returncode == 1
    assert f"{hidden}:6:1: AGI001" in run.stderr
    assert "static check: missed by the static check" in run.stderr


@needs_torch
def test_command_runs_the_program_as_python_does(tmp_path):
    script = _write(tmp_path, "prog.py", """\
        import sys
        print("argv", sys.argv[1:], __name__)
        sys.exit(int(sys.argv[1]))
        """)
    run = _explain(script, "3", "--flag")
    assert run.returncode == 3 and run.stdout == "argv ['3', '--flag'] __main__\n" and run.stderr == ""
    run = _explain(script, "0")
    assert run.returncode == 0

    _write(tmp_path, "pkg_mod.py", """\
        import sys
        import torch
        print("module", sys.argv[1:], __name__)
        w = torch.ones(3, requires_grad=True)
        w.add_(1)
        """)
    run = _explain("-m", "pkg_mod", "a", cwd=tmp_path)
    assert run.returncode == 1
    assert run.stdout == "module ['a'] __main__\n"
    assert "AGI002" in run.stderr and "pkg_mod.py:5:1: AGI002" in run.stderr
    assert "w.add_(1)" in run.stderr

    bad = _explain(tmp_path / "missing.py")
    assert bad.returncode == 2 and "no such file" in bad.stderr
    assert _explain().returncode == 2


def test_help_says_it_runs_user_code():
    run = _explain("--help")
    assert run.returncode == 0
    assert "RUNS YOUR PROGRAM" in run.stdout and "-m MODULE" in run.stdout


@needs_torch
def test_caught_errors_are_explained_at_exit(tmp_path):
    script = _write(tmp_path, "caught.py", """\
        import torch

        x = torch.randn(4, requires_grad=True)
        h = x.exp()
        h.add_(1)
        try:
            h.sum().backward()
        except RuntimeError:
            print("caught")
        """)
    run = _explain(script)
    assert run.returncode == 0 and run.stdout == "caught\n"
    assert "raised and caught" in run.stderr and f"{script}:5:1: AGI001" in run.stderr


@needs_torch
def test_sequential_module_and_optimizer_step_are_named(tmp_path):
    script = _write(tmp_path, "train.py", """\
        import torch
        from torch import nn

        model = nn.Sequential(
            nn.Linear(3, 3),
            nn.Sigmoid(),
            nn.ReLU(inplace=True),
        )
        x = torch.randn(2, 3)
        model(x).sum().backward()
        """)
    run = _explain(script)
    assert run.returncode == 1
    assert f"{script}:7:5: AGI001 F.relu modified in place a tensor that torch.sigmoid" in run.stderr
    assert f"nn.ReLU (inplace=True)'s, the module built at {script}:7, run at {script}:10" in run.stderr
    assert f"in nn.Sigmoid built at {script}:6 (its result)" in run.stderr

    step = _write(tmp_path, "step.py", """\
        import torch

        w = torch.nn.Parameter(torch.randn(3, 3))
        opt = torch.optim.SGD([w], lr=0.1)
        x = torch.randn(2, 3, requires_grad=True)
        loss = (x @ w).sum()
        loss.backward(retain_graph=True)
        opt.step()
        loss.backward()
        """)
    run = _explain(step)
    assert run.returncode == 1
    assert f"{step}:8:1: AGI001" in run.stderr  # the step() call
    assert f"at {step}:6 (its input)" in run.stderr  # the forward that saved the weight


def test_lint_time_never_imports_torch(tmp_path):
    source = tmp_path / "model.py"
    source.write_text("import torch\n\ndef f(x):\n    y = x.exp()\n    y.add_(1)\n    return y\n\n"
                      "f(torch.zeros(2, requires_grad=True)).sum().backward()\n")
    code = textwrap.dedent(f"""\
        import sys
        import inplace_lint, inplace_lint.explainer, inplace_lint.explainer.cli
        import inplace_lint.explainer.report, inplace_lint.explainer.session
        import inplace_lint.explainer.pytest_plugin
        from inplace_lint.adapters.cli import main
        inplace_lint.lint_source(open({str(source)!r}).read())
        status = main(["--no-cache", {str(source)!r}])
        status2 = main(["explain", "--help"])
        assert status == 1, status
        bad = [m for m in sys.modules if m == "torch" or m.startswith("torch.")]
        assert not bad, bad
        print("ok")
        """)
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0 and run.stdout.strip().endswith("ok"), run.stderr


def test_pytest_plugin_is_inert_without_the_flag(tmp_path):
    _write(tmp_path, "test_probe.py", """\
        import sys

        def test_no_torch():
            assert "torch" not in sys.modules
        """)
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tmp_path)],
                         capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    listed = subprocess.run([sys.executable, "-m", "pytest", "--help"], capture_output=True, text=True,
                            cwd=tmp_path, timeout=120)
    assert "--inplace-explain" in listed.stdout  # the entry point is registered


@needs_torch
def test_pytest_plugin_appends_the_report(tmp_path):
    _write(tmp_path, "test_model.py", """\
        import torch

        def helper(h):
            h.mul_(2)

        def test_breaks():
            x = torch.randn(3, requires_grad=True)
            h = x + 1
            y = h.sin()
            helper(h)
            y.sum().backward()

        def test_fine():
            x = torch.randn(3, requires_grad=True)
            (x * 2).sum().backward()
        """)
    args = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist", str(tmp_path)]
    run = subprocess.run(args + ["--inplace-explain"], capture_output=True, text=True, cwd=tmp_path,
                         timeout=120)
    assert run.returncode == 1
    assert "1 failed, 1 passed" in run.stdout
    assert "Captured inplace-lint explain call" in run.stdout
    assert "test_model.py:4:5: AGI001 Tensor.mul_ modified in place" in run.stdout
    plain = subprocess.run(args, capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert "1 failed, 1 passed" in plain.stdout and "inplace-lint explain" not in plain.stdout


@needs_torch
def test_docs_show_a_real_run():
    doc = (ROOT / "docs" / "explain.md").read_text(encoding="utf-8")
    shown = re.search(r"```console\n\$ inplace-lint explain examples/explain_demo.py\n(.*?)\n```", doc, re.S)
    run = _explain("examples/explain_demo.py", cwd=ROOT)
    assert run.returncode == 1
    report = run.stderr.split("Traceback")[0]
    assert shown.group(1).startswith(report), "docs/explain.md's report is not what the command prints"
    last = run.stderr.rstrip().splitlines()[-1]
    assert shown.group(1).rstrip().endswith(last)
    plain = subprocess.run([sys.executable, "examples/explain_demo.py"], capture_output=True, text=True,
                           cwd=ROOT)
    assert plain.stderr.rstrip().splitlines()[-1] == last  # torch's message, with and without the tracer


SCENARIOS = '''\
import io, json, sys
import torch
import inplace_lint

def explained(fn):
    out, error = io.StringIO(), None
    try:
        with inplace_lint.explain(file=out) as session:
            fn()
    except RuntimeError as raised:
        error = str(raised)[:60]
    blamed = [[s.line for s in sites] for sites in session.culprits]
    return {"error": error, "report": out.getvalue(), "blamed": blamed}

def hook_writes_saved():  # a tensor hook edits, during backward, a tensor the multiply saved
    x = torch.randn(3, requires_grad=True)
    h = torch.sigmoid(x)
    s = h * 2.0 * x
    s.register_hook(lambda g: h.zero_())  # <hook>
    s.sum().backward()

def base_written_then_chunk_used():  # torch raises at the use of the view, not at the write
    stats = torch.randn(4, 6, requires_grad=True) * 1.0
    mu, logvar = stats.chunk(2, dim=-1)
    stats.clamp_(-1.0, 1.0)  # <base-write>
    return torch.exp(logvar)  # <base-use>

class Double(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * 2

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * 2

def function_input_written():  # a custom Function saved its input; the caller writes it
    x = torch.randn(3, requires_grad=True)
    h = x * 1.0
    y = Double.apply(h)  # <fn-save>
    h.add_(1)  # <fn-write>
    y.sum().backward()

def view_written():  # the write and the save are different views of one storage
    x = torch.randn(4, 3, requires_grad=True)
    h = x * 2
    y = h[:2].sin()
    h[2:].zero_()  # <view-write>
    y.sum().backward()

def clean():
    x = torch.randn(3, requires_grad=True)
    (x.exp() * 2).sum().backward()

print(json.dumps({name: explained(fn) for name, fn in [
    ("hook", hook_writes_saved), ("base", base_written_then_chunk_used),
    ("function", function_input_written), ("view", view_written), ("clean", clean)]}))
'''


@needs_torch
def test_api_hooks_views_and_functions(tmp_path):
    script = tmp_path / "scenarios.py"
    script.write_text(SCENARIOS, encoding="utf-8")
    line = {mark: n for n, text in enumerate(SCENARIOS.splitlines(), 1)
            for mark in re.findall(r"# <([\w-]+)>", text)}
    run = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    got = json.loads(run.stdout)
    assert got["hook"]["error"].startswith("one of the variables needed")
    assert got["hook"]["blamed"][0][0] == line["hook"], got["hook"]["report"]
    assert "Tensor.zero_ modified in place" in got["hook"]["report"]
    assert "its base or another view" not in got["base"]["report"]
    assert got["base"]["blamed"][0][0] == line["base-write"], got["base"]["report"]
    assert line["base-use"] in got["base"]["blamed"][0]
    assert "AGI003 Tensor.clamp_ wrote the base of a view" in got["base"]["report"]
    assert "torch raised where the view is used, by torch.exp" in got["base"]["report"]
    assert got["function"]["blamed"][0][0] == line["fn-write"], got["function"]["report"]
    saved = f"Double.apply on line {line['fn-save']} saved for backward (as its input)"
    assert saved in got["function"]["report"]
    assert got["view"]["blamed"][0][0] == line["view-write"]
    assert "the write went through 'h[2:]', a view of 'h' (float32[2, 3])" in got["view"]["report"]
    assert got["clean"] == {"error": None, "report": "", "blamed": []}


@needs_torch
def test_repros_culprits_are_named():
    """Each repro in eval/corpus_repros/ catches the errors it provokes; every one it raises is explained on
    a line marked ``# culprit`` (where the docstring says the library breaks)."""
    programs = sorted(p for p in (ROOT / "eval" / "corpus_repros").glob("*.py") if not p.name.startswith("_"))
    results = explain_eval.run_programs(programs, jobs=2, timeout=120, static_check=False)
    for program in programs:
        key = str(program.resolve())
        record = results[key]
        assert explain_eval.verdict(key, record) == "found", (program.name, record["traced"]["blamed"])
        assert record["traced"]["stdout"] == record["plain"]["stdout"]  # the same cases raise
        assert record["traced"]["status"] == record["plain"]["status"] == 0


@pytest.mark.slow
@needs_torch
def test_forum_programs_culprits_are_named():
    """The whole sweep (``python -m eval.explain_eval``): about 20 minutes on two cores."""
    programs = explain_eval._expand([str(ROOT / "eval" / "forum_programs")])
    results = explain_eval.run_programs(programs, jobs=2)
    verdicts = {str(p): explain_eval.verdict(str(p.resolve()), results[str(p.resolve())]) for p in programs}
    bad = {p: v for p, v in verdicts.items() if v not in ("found", "clean")}
    assert not bad, bad
