"""The ``inplace-lint`` command, the ``# noqa`` reader and the fix loop.

Most tests run the command in-process against a fake analysis (tests/data/fake_analysis) so the findings,
fixes and evidence are known exactly; the tests marked ``real`` run the real analysis end to end.
"""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from inplace_lint.fixkit.apply import apply_fixes, fix_text, lint_text
from inplace_lint.adapters.cli import main
from inplace_lint.engine.config import Settings
from inplace_lint.engine.core import LintError, lint_source
from inplace_lint.model.findings import Edit, Evidence, Finding, Fix, LintOptions, Position
from inplace_lint.syntax.noqa import NoqaMap, add_code_to_line, codes_in_comment, filter_suppressed, line_suppresses

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
    try:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        code = "import inplace_lint.rules.report as a; assert not getattr(a, '__fake__', False); a.analyze_module"
        return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True).returncode == 0
    except OSError:
        return False


real = pytest.mark.skipif(not real_analysis_available(), reason="inplace_lint.analysis has not landed yet")


@pytest.fixture
def fake(monkeypatch):
    fake_inplace_analysis.patch(monkeypatch)


@pytest.fixture
def project(tmp_path, monkeypatch):
    """An empty project folder (with its own config so the repo's config never leaks in) as cwd."""
    (tmp_path / "setup.cfg").write_text("[inplace-lint]\nselect = AGI\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run(capsys, *argv):
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


# --- noqa --------------------------------------------------------------------------------------------

NOQA_LINES = [
    "x  # noqa",
    "x  # NOQA",
    "x  # noqa: AGI001",
    "x  # noqa:AGI001",
    "x  # noqa:  AGI001",
    "x  # noqa: AGI001,AGI002",
    "x  # noqa: AGI002 AGI001",
    "x  # noqa: AGI",
    "x  # noqa: E501",
    "x  # noqa: agi001",
    "x  # noqa : AGI001",
    "x  # noqa:E501,AGI001 because reasons",
    "x  # noqa AGI001",
    "x  #noqa",
    "x  # something else",
    "x = '# noqa'",
]


@pytest.mark.parametrize("line", NOQA_LINES)
def test_noqa_matches_flake8_exactly(line):
    from flake8.defaults import NOQA_INLINE_REGEXP as FLAKE8_REGEXP
    from flake8.violation import Violation

    for code in ("AGI001", "AGI002"):
        flake8_says = Violation(code, "f.py", 1, 1, "m", line).is_inline_ignored(disable_noqa=False)
        assert line_suppresses(line, code) == flake8_says, (line, code)
    ours = codes_in_comment(line)
    theirs = FLAKE8_REGEXP.search(line)
    assert (ours is None) == (theirs is None)


def test_noqa_at_the_end_of_a_multiline_string_covers_its_lines():
    source = 'import torch\nx = """\nb *= b\n"""  # noqa: AGI001\ny = 1\n'
    noqa_map = NoqaMap(source)
    assert noqa_map.suppresses(3, "AGI001")
    assert noqa_map.suppresses(2, "AGI001")
    assert not noqa_map.suppresses(5, "AGI001")
    assert noqa_map.comment_line_for(2) == 4


def test_file_level_flake8_noqa():
    assert NoqaMap("# flake8: noqa\nimport torch\n").suppresses(2, "AGI001")
    assert not NoqaMap("import torch  # flake8: noqa\nb *= b\n").suppresses(2, "AGI001")


def test_filter_suppressed_keeps_unsuppressed_findings():
    findings = [_finding(line=2), _finding(line=3)]
    source = "import torch\nb *= b  # noqa: AGI001\nb *= b  # noqa: AGI002\n"
    assert filter_suppressed(findings, source) == [findings[1]]


@pytest.mark.parametrize(
    "line, expected",
    [
        ("        b *= b", "        b *= b  # noqa: AGI001"),
        ("        b *= b   ", "        b *= b  # noqa: AGI001"),
        ("        b *= b  # why", "        b *= b  # why  # noqa: AGI001"),
        ("        b *= b  # noqa: AGI002", "        b *= b  # noqa: AGI002, AGI001"),
        ("        b *= b  # noqa:E501,W291 trailing", "        b *= b  # noqa:E501, W291, AGI001 trailing"),
        ("        b *= b  # noqa", None),
        ("        b *= b  # noqa: AGI", None),
    ],
)
def test_add_code_to_line(line, expected):
    new = add_code_to_line(line, "AGI001")
    assert new == expected
    if new is not None:
        assert line_suppresses(new, "AGI001")
        for code in re.findall(r"[A-Z]+[0-9]+", line):
            assert line_suppresses(new, code)


# --- applying fixes ----------------------------------------------------------------------------------


def _finding(line=5, col=8, end_col=14, code="AGI001", fix=None, end_line=None):
    return Finding(
        code=code,
        name="x",
        message="m",
        path="t.py",
        start=Position(line, col),
        end=Position(end_line or line, end_col),
        evidence=Evidence(inplace_op="*=", tensor="b"),
        fix=fix,
    )


def _fix(*edits, applicability="safe"):
    return Fix(
        "t", applicability, tuple(Edit(Position(a, b), Position(c, d), text) for a, b, c, d, text in edits)
    )


def test_apply_fixes_bottom_up_with_several_edits_per_fix():
    source = "ab\ncd\nef\n"
    fixes = [_fix((1, 0, 1, 1, "X"), (3, 1, 3, 2, "YY")), _fix((2, 0, 2, 2, ""))]
    assert apply_fixes(source, fixes) == ("Xb\n\neYY\n", 2)


def test_apply_fixes_skips_overlapping_and_out_of_range_fixes():
    source = "abcdef\n"
    fixes = [
        _fix((1, 1, 1, 4, "X")),
        _fix((1, 3, 1, 5, "Y")),  # overlaps the first: skipped (a later round may apply it)
        _fix((1, 0, 1, 99, "Z")),  # past the end of the line: never applied
        _fix((9, 0, 9, 1, "W")),  # no such line
        _fix((1, 5, 1, 6, "F")),
    ]
    assert apply_fixes(source, fixes) == ("aXeF\n", 2)


def test_apply_fixes_handles_crlf_and_multiline_edits():
    source = "a = 1\r\nb = 2\r\nc = 3\r\n"
    assert apply_fixes(source, [_fix((1, 4, 2, 5, "9"))]) == ("a = 9\r\nc = 3\r\n", 1)
    assert apply_fixes(source, [_fix((4, 0, 4, 0, "d = 4\r\n"))]) == (source + "d = 4\r\n", 1)


def test_apply_fixes_counts_columns_in_code_points():
    source = "s = '😀'; b *= b\n"
    col = source.index("b *=")
    assert apply_fixes(source, [_fix((1, col, 1, col + 6, "b = b * b"))])[0] == "s = '😀'; b = b * b\n"


def test_fix_loop_relints_until_nothing_changes(fake):
    source = "import torch\nb *= b\nc *= c  # noqa: AGI001\nd.mul_(e)\n"
    result = fix_text(source, "t.py", Settings(), linter=lint_source)
    assert result.source == "import torch\nb = b * b\nc *= c  # noqa: AGI001\nd.mul_(e)\n"
    assert result.fixed == 1
    assert [f.code for f in result.remaining] == ["AGI001"]  # the unsafe one
    unsafe = fix_text(source, "t.py", Settings(), unsafe=True, linter=lint_source)
    assert unsafe.source.endswith("d = d.mul(e)\n")
    assert unsafe.fixed == 2 and unsafe.remaining == [] and unsafe.converged


def test_fix_loop_is_bounded_when_fixes_never_settle():
    calls = []

    def flip_flop(source, path, options):
        calls.append(source)
        other = "y" if "x" in source else "x"
        current = "x" if "x" in source else "y"
        col = source.index(current)
        return [_finding(line=1, col=col, end_col=col + 1, fix=_fix((1, col, 1, col + 1, other)))]

    result = fix_text("x\n", "t.py", Settings(), linter=flip_flop)
    assert not result.converged
    assert len(calls) <= 3  # stopped as soon as a text repeated

    def always_grow(source, path, options):
        return [_finding(line=1, col=0, end_col=0, fix=_fix((1, 0, 1, 0, "a")))]

    grown = fix_text("\n", "t.py", Settings(), linter=always_grow, max_rounds=4)
    assert grown.source == "aaaa\n" and grown.fixed == 4 and not grown.converged


def test_fix_that_breaks_the_code_is_undone():
    def linter(source, path, options):
        if "(" in source:
            raise LintError("cannot parse: unbalanced", 1, 0)
        return [_finding(line=1, col=0, end_col=1, fix=_fix((1, 0, 1, 1, "(")))]

    result = fix_text("x\n", "t.py", Settings(), linter=linter)
    assert result.source == "x\n"
    assert result.fixed == 0
    assert "cannot be linted" in result.error


def test_lint_text_applies_per_file_ignores_and_noqa(fake, tmp_path):
    source = "import torch\nb *= b\nw.zero_()\nc *= c  # noqa\n"
    settings = Settings(per_file_ignores=(("t.py", ("AGI002",)),), root=tmp_path)
    assert [f.code for f in lint_text(source, str(tmp_path / "t.py"), settings, lint_source)] == ["AGI001"]
    assert [f.code for f in lint_text(source, str(tmp_path / "u.py"), settings, lint_source)] == ["AGI001", "AGI002"]


# --- the command -------------------------------------------------------------------------------------


def test_seed_is_reported_with_one_based_column(fake, project, capsys):
    (project / "seed.py").write_text(SEED, encoding="utf-8")
    code, out, err = run(capsys, "seed.py")
    assert code == 1
    assert out.splitlines() == [
        "seed.py:5:9: AGI001 `b *= b` modifies `b` in place, but `b *= b` saved it for backward (line 5); "
        "backward will raise"
    ]
    assert err == "Found 1 finding.\n[*] 1 fixable with --fix.\n"
    assert run(capsys, "check", "seed.py")[:2] == (code, out)
    assert run(capsys, "check", "--exit-zero", "seed.py")[0] == 0
    assert run(capsys, "check", "-q", "seed.py")[2] == ""


def test_clean_code_exits_zero(fake, project, capsys):
    (project / "ok.py").write_text("import torch\nb = torch.ones(3)\nb = b * b\n", encoding="utf-8")
    (project / "other.py").write_text("x = 1\n", encoding="utf-8")
    assert run(capsys, ".") == (0, "", "All checks passed!\n")
    assert run(capsys, "-q", ".") == (0, "", "")


def test_select_ignore_and_noqa(fake, project, capsys):
    (project / "m.py").write_text("import torch\nb *= b\nw.zero_()\n", encoding="utf-8")
    assert run(capsys, "--select", "AGI002", "m.py")[1].count("AGI002") == 1
    assert "AGI001" not in run(capsys, "--select", "AGI002", "m.py")[1]
    code, out, _ = run(capsys, "--ignore", "AGI001,AGI002", "m.py")
    assert (code, out) == (0, "")
    (project / "n.py").write_text(
        "import torch\nb *= b  # noqa: AGI001\nc *= c  # NOQA:AGI002\nd *= d  # noqa\ne *= e  # noqa: AGI\n",
        encoding="utf-8",
    )
    code, out, _ = run(capsys, "n.py")
    assert code == 1 and out.splitlines() == [line for line in out.splitlines() if line.startswith("n.py:3:")]


def test_unknown_code_on_the_command_line_is_a_usage_error(project, capsys):
    code, out, err = run(capsys, "--select", "AGI9", ".")
    assert code == 2 and out == ""
    assert err.strip() == (
        "inplace-lint: error: unknown rule code 'AGI9' in --select (known codes: AGI001, AGI002, AGI003, AGI004; "
        "a prefix such as 'AGI' selects several)"
    )


def test_usage_errors_exit_2(project, capsys):
    code, _, err = run(capsys, "--no-such-flag", ".")
    assert code == 2 and "unrecognized arguments" in err
    code, _, err = run(capsys, "--output-format", "xml", ".")
    assert code == 2 and "invalid choice" in err


def test_per_file_ignores_from_config(fake, project, capsys):
    (project / "setup.cfg").write_text(
        "[inplace-lint]\nper-file-ignores =\n    tests/*: AGI001\n", encoding="utf-8"
    )
    (project / "tests").mkdir()
    (project / "tests" / "t.py").write_text(SEED, encoding="utf-8")
    (project / "src.py").write_text(SEED, encoding="utf-8")
    code, out, _ = run(capsys, ".")
    assert code == 1 and [line.split(":")[0] for line in out.splitlines()] == ["src.py"]


def test_output_formats_write_only_data_to_stdout(fake, project, capsys):
    (project / "seed.py").write_text(SEED, encoding="utf-8")
    code, out, err = run(capsys, "--output-format", "json", "seed.py")
    assert code == 1
    data = json.loads(out)
    assert data[0]["location"] == {"row": 5, "column": 9}
    assert data[0]["fix"]["applicability"] == "safe"
    assert "Found" not in out
    code, out, _ = run(capsys, "--output-format", "sarif", "seed.py")
    assert (
        json.loads(out)["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startColumn"]
        == 9
    )
    code, out, _ = run(capsys, "--output-format", "github", "seed.py")
    assert out.startswith("::error file=seed.py,line=5,col=9,endLine=5,endColumn=15,title=AGI001::")


def test_statistics(fake, project, capsys):
    (project / "m.py").write_text("import torch\nb *= b\nc *= c\nw.zero_()\n", encoding="utf-8")
    code, out, _ = run(capsys, "--statistics", "m.py")
    assert code == 1
    assert out.splitlines() == [
        "2  AGI001  saved-tensor-modified-inplace  (2 fixable)",
        "1  AGI002  leaf-modified-inplace",
    ]
    code, out, _ = run(capsys, "--statistics", "--output-format", "json", "m.py")
    assert json.loads(out)[0] == {
        "code": "AGI001",
        "name": "saved-tensor-modified-inplace",
        "count": 2,
        "fixable": 2,
    }


def test_fix_writes_safe_fixes_and_reports(fake, project, capsys):
    path = project / "m.py"
    path.write_text("import torch\nb *= b\nc *= c  # noqa: AGI001\nd.mul_(e)\n", encoding="utf-8")
    code, out, err = run(capsys, "--fix", "m.py")
    assert path.read_text(encoding="utf-8") == "import torch\nb = b * b\nc *= c  # noqa: AGI001\nd.mul_(e)\n"
    assert code == 1  # the unsafe one remains
    assert out.startswith("m.py:4:1: AGI001")
    assert err.strip() == "Fixed 1 finding, 1 remaining (1 unsafe fix available with --fix --unsafe-fixes)."
    code, out, err = run(capsys, "--fix", "--unsafe-fixes", "m.py")
    assert (code, out, err.strip()) == (0, "", "Fixed 1 finding, 0 remaining.")
    assert path.read_text(encoding="utf-8").endswith("d = d.mul(e)\n")
    assert run(capsys, "--fix", "m.py") == (0, "", "Fixed 0 findings, 0 remaining.\n")


def test_fix_keeps_encoding_bom_and_line_endings(fake, project, capsys):
    latin = project / "latin.py"
    latin.write_bytes("# -*- coding: latin-1 -*-\r\nimport torch\r\ns = 'é'\r\nb *= b\r\n".encode("latin-1"))
    bom = project / "bom.py"
    bom.write_bytes(b"\xef\xbb\xbfimport torch\nb *= b\n")
    assert run(capsys, "--fix", "latin.py", "bom.py")[0] == 0
    assert (
        latin.read_bytes()
        == "# -*- coding: latin-1 -*-\r\nimport torch\r\ns = 'é'\r\nb = b * b\r\n".encode("latin-1")
    )
    assert bom.read_bytes() == b"\xef\xbb\xbfimport torch\nb = b * b\n"


def test_diff_prints_and_writes_nothing(fake, project, capsys):
    path = project / "seed.py"
    path.write_text(SEED, encoding="utf-8")
    code, out, err = run(capsys, "--diff", "seed.py")
    assert code == 1
    assert path.read_text(encoding="utf-8") == SEED
    assert out.splitlines()[:2] == ["--- a/seed.py", "+++ b/seed.py"]
    assert "-        b *= b" in out.splitlines() and "+        b = b * b" in out.splitlines()
    assert err.strip() == "Would fix 1 finding in 1 file, 0 remaining."
    (project / "ok.py").write_text("x = 1\n", encoding="utf-8")
    assert run(capsys, "--diff", "ok.py")[:2] == (0, "")


def test_stdin(fake, project, capsys, monkeypatch):
    def feed(data: str):
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data.encode("utf-8"))))

    feed(SEED)
    code, out, _ = run(capsys, "-", "--stdin-filename", "pkg/seed.py")
    assert code == 1 and out.startswith("pkg/seed.py:5:9: AGI001")
    feed(SEED)
    code, out, err = run(capsys, "check", "-")
    assert out.startswith("-:5:9: AGI001")
    feed(SEED)
    code, out, err = run(capsys, "--fix", "-")
    assert code == 0 and out == SEED.replace("b *= b", "b = b * b")
    broken = "import torch\ndef broken(:\n    b *= b\n"
    feed(broken)
    code, out, err = run(capsys, "--fix", "-", "--stdin-filename", "x.py")
    assert code == 2 and out == broken  # echoed unchanged: an editor never loses its buffer
    assert "inplace-lint: x.py:" in err and "cannot parse" in err
    code, _, err = run(capsys, "-", "a.py")
    assert code == 2 and "cannot be combined" in err


def test_unlintable_files_exit_2_with_one_line_each_and_others_still_report(fake, project, capsys):
    (project / "a_bad.py").write_text("import torch\ndef broken(:\n    b *= b\n", encoding="utf-8")
    (project / "b_cookie.py").write_bytes(b"# -*- coding: no-such-codec -*-\nimport torch\n")
    (project / "c_bytes.py").write_bytes(b"import torch\nx = '\xff\xfe'\n")
    (project / "d_seed.py").write_text(SEED, encoding="utf-8")
    code, out, err = run(capsys, ".", "missing.py")
    assert code == 2
    assert out.startswith("d_seed.py:5:9: AGI001")
    lines = err.strip().splitlines()
    assert "Traceback" not in err
    assert lines[0] == "inplace-lint: missing.py: no such file or directory"
    assert lines[1].startswith("inplace-lint: a_bad.py:") and "cannot parse" in lines[1]
    assert lines[2].startswith("inplace-lint: b_cookie.py: cannot decode")
    assert lines[3].startswith("inplace-lint: c_bytes.py: cannot decode")
    assert len(lines) == 6 and lines[4].startswith("Found 1 finding")


def test_internal_errors_are_one_line_not_a_traceback(project, capsys, monkeypatch):
    def boom(module, source, path, options, **_):
        raise ZeroDivisionError("oops")

    broken = fake_inplace_analysis.make_module()
    broken.analyze_module = boom
    fake_inplace_analysis.patch(monkeypatch, broken)
    (project / "seed.py").write_text(SEED, encoding="utf-8")
    code, out, err = run(capsys, "seed.py")
    assert code == 2 and out == ""
    assert err.strip().splitlines() == [
        "inplace-lint: seed.py: internal error while analysing (ZeroDivisionError: oops); please report it"
    ]


def test_no_files_is_success_with_a_note(project, capsys):
    assert run(capsys) == (0, "", "inplace-lint: no Python files to check\n")
    (project / "empty").mkdir()
    assert run(capsys, "empty") == (0, "", "inplace-lint: no Python files to check\n")
    assert run(capsys, "-q", "empty") == (0, "", "")


def test_rule_command(capsys):
    from inplace_lint.rules import RULES

    code, out, _ = run(capsys, "rule", "AGI001")
    assert code == 0
    assert out.startswith("# AGI001 (saved-tensor-modified-inplace)")
    assert RULES["AGI001"].doc in out and RULES["AGI001"].url in out
    assert run(capsys, "rule", "leaf-modified-inplace")[1].startswith("# AGI002")
    assert run(capsys, "rule", "agi002")[0] == 0
    code, out, err = run(capsys, "rule", "AGI404")
    assert code == 2 and "unknown rule 'AGI404'" in err
    code, out, _ = run(capsys, "rule", "--all")
    assert code == 0 and [line.split()[0] for line in out.splitlines()] == sorted(RULES)


def test_python_dash_m_and_version():
    result = subprocess.run(
        [sys.executable, "-m", "inplace_lint", "--version"], capture_output=True, text=True
    )
    assert result.returncode == 0 and result.stdout.startswith("inplace-lint ")


def _imported_modules(importtime_stderr: str):
    return {
        line.rsplit("|", 1)[-1].strip()
        for line in importtime_stderr.splitlines()
        if line.startswith("import time:")
    }


def test_cli_and_flake8_plugin_never_import_torch(tmp_path):
    (tmp_path / "seed.py").write_text(SEED_CALLED, encoding="utf-8")
    env = dict(os.environ)
    if not real_analysis_available():
        env["PYTHONPATH"] = str(FAKE_DIR)
    commands = [
        [sys.executable, "-X", "importtime", "-m", "inplace_lint", "check", "seed.py"],
        [sys.executable, "-X", "importtime", "-m", "flake8", "--isolated", "-j1", "--select=AGI", "seed.py"],
        [
            sys.executable,
            "-X",
            "importtime",
            "-c",
            "import inplace_lint.adapters.lsp; inplace_lint.adapters.lsp.create_server()",
        ],
    ]
    for command in commands:
        result = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True)
        modules = _imported_modules(result.stderr)
        assert result.returncode in (0, 1), result.stderr[-2000:]
        assert any(m.startswith("inplace_lint.") for m in modules), result.stderr[-2000:]
        if "lsp" not in command[-1]:
            assert "seed.py:5:9: AGI001" in result.stdout  # the analysis really ran
        torch_modules = sorted(m for m in modules if m == "torch" or m.startswith("torch."))
        assert not torch_modules, (command, torch_modules[:5])


def test_lint_paths_do_not_import_pygls():
    code = (
        "import sys; from inplace_lint.adapters.cli import main; main(['rule', 'AGI001']);"
        "bad = [m for m in sys.modules if m.split('.')[0] in ('pygls', 'lsprotocol', 'torch')];"
        "assert not bad, bad"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


@real
def test_real_analysis_reports_the_seed(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "setup.cfg").write_text("[inplace-lint]\nselect = AGI\n", encoding="utf-8")
    (tmp_path / "seed.py").write_text(SEED_CALLED, encoding="utf-8")
    code, out, err = run(capsys, "seed.py")
    assert code == 1, err
    lines = out.splitlines()
    assert len(lines) == 1 and lines[0].startswith("seed.py:5:9: AGI001 ")
    data = json.loads(run(capsys, "--output-format", "json", "seed.py")[1])
    assert [(d["code"], d["location"], d["end_location"]["row"]) for d in data] == [
        ("AGI001", {"row": 5, "column": 9}, 5)
    ]
    code, _, _ = run(capsys, "--fix", "seed.py")
    fixed = (tmp_path / "seed.py").read_text(encoding="utf-8")
    if data[0]["fix"] and data[0]["fix"]["applicability"] == "safe":
        assert fixed != SEED_CALLED and code == 0
        assert run(capsys, "seed.py")[0] == 0
    else:
        assert fixed == SEED


@real
def test_real_analysis_leaves_safe_code_alone(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "setup.cfg").write_text("[inplace-lint]\nselect = AGI\n", encoding="utf-8")
    (tmp_path / "safe.py").write_text(SEED.replace("b *= b", "b = b * b"), encoding="utf-8")
    assert run(capsys, "safe.py")[:2] == (0, "")


def test_lint_options_reach_the_analysis(fake, project, capsys):
    # the fake reports ``b **= b`` only at the opt-in level (a finding resting on an assumption)
    (project / "seed.py").write_text(SEED.replace("b *= b", "b **= b"), encoding="utf-8")
    assert run(capsys, "seed.py")[0] == 0
    assert run(capsys, "--no-assume-params-are-tensors", "seed.py")[0] == 0
    assert run(capsys, "--assume-params-are-tensors", "seed.py")[0] == 1
    (project / "setup.cfg").write_text(
        "[inplace-lint]\nassume-params-are-tensors = true\n", encoding="utf-8"
    )
    assert run(capsys, "seed.py")[0] == 1
    assert run(capsys, "--no-assume-params-are-tensors", "seed.py")[0] == 0
    assert LintOptions().assume_params_are_tensors is False
