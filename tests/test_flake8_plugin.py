"""The flake8 plugin, in-process and through a real ``flake8`` subprocess."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from inplace_lint.engine import core as engine
from inplace_lint.adapters.flake8_plugin import InplaceLintChecker

DATA = Path(__file__).parent / "data"
FAKE_DIR = DATA / "fake_analysis"
sys.path.insert(0, str(FAKE_DIR))
import fake_inplace_analysis  # noqa: E402

SEED = textwrap.dedent("""\
    import torch
    def fn(a):
        b = a ** 2
        for i in range(5):
            b *= b
        return b
    """)
# ... with the call that is the evidence: the default level reports what a call passing a tensor that
# requires grad makes of fn (examples/seed.py); without it, only the opt-in level does
SEED_CALLED = SEED + "fn(torch.tensor(5.0, requires_grad=True)).backward()\n"


def real_analysis_available() -> bool:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    code = "import inplace_lint.rules.report as a; assert not getattr(a, '__fake__', False); a.analyze_module"
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True).returncode == 0


@pytest.fixture
def fake(monkeypatch):
    fake_inplace_analysis.patch(monkeypatch)
    monkeypatch.setattr(InplaceLintChecker, "assume_params_are_tensors", True)


def check(source: str, filename: str = "t.py"):
    lines = source.splitlines(keepends=True)
    return list(InplaceLintChecker(ast.parse(source), filename, lines).run())


def test_yields_zero_based_column_and_code_first(fake):
    results = check(SEED)
    assert len(results) == 1
    line, col, message, kind = results[0]
    assert (line, col) == (5, 8)  # flake8 adds 1 and prints 5:9
    assert message.startswith("AGI001 ")
    assert "\n" not in message
    assert kind is InplaceLintChecker


def test_no_torch_means_no_parse(fake, monkeypatch):
    def must_not_parse(source):
        raise AssertionError("parsed a file that never mentions torch")

    monkeypatch.setattr(engine, "parse", must_not_parse)
    assert check("b = 1\nb *= b\n") == []


def test_lint_error_reports_nothing_and_one_stderr_line(fake, monkeypatch, capsys):
    def bad(source):
        raise engine.LintError("cannot parse: something odd (line 2)", 2, 3)

    monkeypatch.setattr(engine, "parse", bad)
    assert check(SEED, "odd.py") == []
    assert capsys.readouterr().err == "inplace-lint: odd.py:2:4: cannot parse: something odd (line 2)\n"


def test_any_exception_reports_nothing(monkeypatch, capsys):
    def boom(module, source, path, options, **_):
        raise KeyError("surprise")

    broken = fake_inplace_analysis.make_module()
    broken.analyze_module = boom
    fake_inplace_analysis.patch(monkeypatch, broken)
    monkeypatch.setattr(engine, "lint_source", lambda *a, **k: (_ for _ in ()).throw(MemoryError("x")))
    assert check(SEED, "x.py") == []
    err = capsys.readouterr().err
    assert err.startswith("inplace-lint: x.py: internal error (MemoryError: x)")
    assert err.count("\n") == 1


def test_options_are_registered_for_config_files():
    from flake8.options.manager import OptionManager

    manager = OptionManager(version="0", plugin_versions="", parents=[], formatter_names=[])
    InplaceLintChecker.add_options(manager)
    option = manager.config_options_dict["inplace-lint-assume-params-are-tensors"]
    assert option.parse_from_config
    args = manager.parse_args(["--inplace-lint-assume-params-are-tensors", "yes"])
    try:
        InplaceLintChecker.parse_options(args)
        assert InplaceLintChecker.assume_params_are_tensors is True
        InplaceLintChecker.parse_options(manager.parse_args([]))
        assert InplaceLintChecker.assume_params_are_tensors is False  # evidence first, by default
    finally:
        InplaceLintChecker.assume_params_are_tensors = False


# --- a real flake8 run -------------------------------------------------------------------------------


def flake8(cwd: Path, *args: str, fake_analysis: bool = True, stdin: str | None = None):
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    if fake_analysis:
        env["PYTHONPATH"] = str(FAKE_DIR)
    return subprocess.run(
        [sys.executable, "-m", "flake8", *args],
        cwd=cwd,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_flake8_reports_the_seed_at_5_9(tmp_path):
    (tmp_path / "seed.py").write_text(SEED, encoding="utf-8")
    (tmp_path / "safe.py").write_text(SEED.replace("b *= b", "b = b * b"), encoding="utf-8")
    (tmp_path / "notorch.py").write_text("x = 1\nx *= x\n", encoding="utf-8")
    (tmp_path / "broken.py").write_text("import torch\ndef broken(:\n    b *= b\n", encoding="utf-8")
    result = flake8(tmp_path, "--isolated", "--select=AGI", "seed.py", "safe.py", "notorch.py", "broken.py")
    assert result.returncode == 1, result.stderr
    assert result.stdout.splitlines() == [
        "seed.py:5:9: AGI001 `b *= b` modifies `b` in place, but `b *= b` saved it for backward (line 5); "
        "backward will raise"
    ]
    assert "Traceback" not in result.stderr


def test_flake8_noqa_and_stdin(tmp_path):
    (tmp_path / "n.py").write_text(SEED.replace("b *= b", "b *= b  # noqa: AGI001"), encoding="utf-8")
    assert flake8(tmp_path, "--isolated", "--select=AGI", "n.py").stdout == ""
    result = flake8(tmp_path, "--isolated", "--select=AGI", "--stdin-display-name=piped.py", "-", stdin=SEED)
    assert result.stdout.startswith("piped.py:5:9: AGI001 ")


def test_flake8_option_from_setup_cfg(tmp_path):
    # the fake reports ``b **= b`` only at the opt-in level (a finding resting on an assumption)
    (tmp_path / "seed.py").write_text(SEED.replace("b *= b", "b **= b"), encoding="utf-8")
    (tmp_path / "setup.cfg").write_text(
        "[flake8]\nselect = AGI\ninplace-lint-assume-params-are-tensors = false\n", encoding="utf-8"
    )
    result = flake8(tmp_path, "seed.py")
    assert (result.returncode, result.stdout) == (0, ""), result.stderr
    result = flake8(tmp_path, "--inplace-lint-assume-params-are-tensors=true", "seed.py")
    assert result.returncode == 1 and "5:9: AGI001" in result.stdout


def test_an_analysis_crash_does_not_abort_flake8(tmp_path):
    crash = tmp_path / "crash"
    crash.mkdir()
    (crash / "sitecustomize.py").write_text(
        textwrap.dedent("""\
            import sys, types, importlib.util

            class Finder:
                def find_spec(self, name, path=None, target=None):
                    if name == "inplace_lint.rules.report":
                        return importlib.util.spec_from_loader(name, self)
                def create_module(self, spec):
                    module = types.ModuleType(spec.name)
                    def analyze_module(module, source, path, options, **_):
                        if "crash" in path:
                            raise RecursionError("deep")
                        return []
                    module.analyze_module = analyze_module
                    module.has_hazards = lambda *_: True
                    return module
                def exec_module(self, module):
                    pass

            sys.meta_path.insert(0, Finder())
            """),
        encoding="utf-8",
    )
    (tmp_path / "a_crash.py").write_text(SEED, encoding="utf-8")
    (tmp_path / "b.py").write_text("import os\n", encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(crash)}
    result = subprocess.run(
        [sys.executable, "-m", "flake8", "--isolated", "--select=AGI,F", "a_crash.py", "b.py"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.stdout.splitlines() == [
        "a_crash.py:1:1: F401 'torch' imported but unused",
        "b.py:1:1: F401 'os' imported but unused",
    ]
    assert result.stderr.strip().splitlines() == [
        "inplace-lint: a_crash.py: cannot lint: the code nests too deeply to analyse"
    ]


@pytest.mark.skipif(not real_analysis_available(), reason="inplace_lint.analysis has not landed yet")
def test_flake8_with_the_real_analysis(tmp_path):
    (tmp_path / "seed.py").write_text(SEED_CALLED, encoding="utf-8")
    (tmp_path / "safe.py").write_text(SEED_CALLED.replace("b *= b", "b = b * b"), encoding="utf-8")
    result = flake8(tmp_path, "--isolated", "--select=AGI", "seed.py", "safe.py", fake_analysis=False)
    lines = result.stdout.splitlines()
    assert len(lines) == 1 and lines[0].startswith("seed.py:5:9: AGI001 "), result.stdout + result.stderr


def test_a_file_the_prefilter_rejects_loads_no_libcst_nor_analysis():
    # flake8 asks the plugin about every file: most hold no in-place write, and they must not pay for
    # importing LibCST and the analysis
    code = (
        "import ast, sys\n"
        "from inplace_lint.adapters.flake8_plugin import InplaceLintChecker\n"
        "source = 'import torch\\ny = torch.exp(x)\\n'\n"
        "assert list(InplaceLintChecker(ast.parse(source), 'a.py', source.splitlines(True)).run()) == []\n"
        "loaded = [m for m in ('libcst', 'inplace_lint.analysis', 'inplace_lint.engine.core') if m in sys.modules]\n"
        "assert not loaded, loaded\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
