"""The findings cache and the worker processes: same answers, faster; never a crash on a bad entry."""

from __future__ import annotations

import json
import multiprocessing
import os
import subprocess
import sys
from pathlib import Path

import pytest

from inplace_lint.engine import cache as cache_module
from inplace_lint.engine.cache import Cache, genuine, key
from inplace_lint.engine.core import lint_source
from inplace_lint.model.findings import LintOptions

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures"
SEED = "import torch\ndef fn(a):\n    b = a ** 2\n    for i in range(5):\n        b *= b\n    return b\n"
# the call is the evidence the default level needs: it passes fn a tensor that requires grad
SEED += "fn(torch.tensor(5.0, requires_grad=True)).backward()\n"


def _env(tmp_path: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["INPLACE_LINT_DEBUG"] = "1"
    env["INPLACE_LINT_CACHE_DIR"] = str(tmp_path / "default-cache")
    return env


def _cli(tmp_path: Path, *args: str, cwd: Path):
    return subprocess.run(
        [sys.executable, "-m", "inplace_lint", "check", *args],
        cwd=cwd, env=_env(tmp_path), capture_output=True, text=True, timeout=300,
    )


def test_round_trip_keeps_every_field(tmp_path):
    source = SEED
    findings = lint_source(source, "seed.py")
    assert findings and findings[0].fix is not None and findings[0].site is not None
    store = Cache(tmp_path)
    digest = key(source, "seed.py", LintOptions())
    assert store.get(digest) is None
    store.put(digest, findings)
    assert store.get(digest) == findings


def test_key_covers_text_path_options_and_linter(monkeypatch):
    base = key(SEED, "a.py", LintOptions())
    assert key(SEED + "\n", "a.py", LintOptions()) != base
    assert key(SEED, "b.py", LintOptions()) != base
    assert key(SEED, "a.py", LintOptions(assume_params_are_tensors=True)) != base
    assert key(SEED, "a.py", LintOptions(select=("AGI002",))) != base
    monkeypatch.setattr(cache_module, "fingerprint", lambda: "another linter")
    assert key(SEED, "a.py", LintOptions()) != base


def test_fingerprint_covers_the_knowledge_file():
    # the fingerprint hashes every .py and .json file of the package (the knowledge's files included)
    package = Path(cache_module.__file__).resolve().parents[1]
    assert (package / "knowledge" / "ops.json").exists()
    assert (package / "knowledge" / "tensor_names.json").exists()
    assert len(cache_module.fingerprint()) == 64


@pytest.mark.parametrize("content", [b"", b"{", b"[]", b'{"schema": 1}', b'{"schema": 1, "findings": [{}]}',
                                     b"\xff\xfe", b'{"schema": 999, "findings": []}'])
def test_a_corrupt_entry_is_a_miss_and_is_rewritten(tmp_path, content):
    store = Cache(tmp_path)
    digest = key(SEED, "seed.py", LintOptions())
    entry = store._entry(digest)
    entry.parent.mkdir(parents=True)
    entry.write_bytes(content)
    assert store.get(digest) is None
    linted = store.linter(lambda s, p, o: lint_source(s, p, o))
    first = linted(SEED, "seed.py", LintOptions())
    assert store.misses == 1
    assert linted(SEED, "seed.py", LintOptions()) == first
    assert store.hits == 1
    assert json.loads(entry.read_text())["schema"] == cache_module.SCHEMA


def test_an_unwritable_folder_only_disables_caching(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    store = Cache(blocker / "cache")
    linted = store.linter(lambda s, p, o: lint_source(s, p, o))
    assert linted(SEED, "seed.py", LintOptions()) == lint_source(SEED, "seed.py")
    assert linted(SEED, "seed.py", LintOptions()) == lint_source(SEED, "seed.py")
    assert store.hits == 0


def _hammer(args):
    folder, digest, payload = args
    from inplace_lint.engine.cache import Cache as _Cache

    store = _Cache(Path(folder))
    for _ in range(30):
        store.put(digest, payload)
        got = store.get(digest)
        assert got is None or got == payload
    return True


def test_concurrent_writers_never_leave_a_torn_entry(tmp_path):
    findings = lint_source(SEED, "seed.py")
    digest = key(SEED, "seed.py", LintOptions())
    context = multiprocessing.get_context("spawn")
    with context.Pool(4) as pool:
        assert all(pool.map(_hammer, [(str(tmp_path), digest, findings)] * 4))
    assert Cache(tmp_path).get(digest) == findings
    leftovers = [p for p in tmp_path.rglob(".tmp-*")]
    assert leftovers == []


def test_a_stand_in_analysis_never_touches_the_cache(monkeypatch):
    import types

    assert genuine()
    import inplace_lint.rules.report as seam

    monkeypatch.setattr(seam, "analyze_module", lambda *a, **k: [])
    assert not genuine()
    monkeypatch.undo()
    fake = types.ModuleType("inplace_lint.rules.report")
    fake.analyze_module = lambda *a, **k: []
    monkeypatch.setitem(sys.modules, "inplace_lint.rules.report", fake)
    assert not genuine()


def _project(tmp_path: Path) -> Path:
    project = tmp_path / "project"
    project.mkdir()
    for index, fixture in enumerate(sorted(FIXTURES.rglob("*.py"))[:24]):
        text = fixture.read_text(encoding="utf-8")
        (project / f"f{index:02d}_{fixture.name}").write_text(text, encoding="utf-8")
    (project / "pyproject.toml").write_text("[tool.inplace-lint]\n", encoding="utf-8")
    return project


def test_cli_cached_rerun_prints_the_same_and_skips_libcst_and_dataclasses(tmp_path):
    """A re-run on an unchanged tree imports neither LibCST nor dataclasses (inplace_lint.model.records): each
    costs every start-up tens of milliseconds, the bulk of a cached re-run."""
    project = _project(tmp_path)
    cache_dir = tmp_path / "cache"
    first = _cli(tmp_path, ".", "--cache-dir", str(cache_dir), "--output-format", "json", cwd=project)
    assert first.returncode == 1, first.stderr
    assert any(cache_dir.rglob("*.json"))
    probe = (
        "import sys\nfrom inplace_lint.adapters.cli import main\n"
        f"code = main(['check', '.', '--cache-dir', {str(cache_dir)!r}, '--output-format', 'json'])\n"
        "loaded = [name for name in ('libcst', 'dataclasses') if name in sys.modules]\n"
        "sys.stderr.write('LOADED: ' + ', '.join(loaded))\nsys.exit(code)\n"
    )
    second = subprocess.run([sys.executable, "-c", probe], cwd=project, env=_env(tmp_path),
                            capture_output=True, text=True, timeout=300)
    assert second.returncode == first.returncode
    assert second.stdout == first.stdout
    assert second.stderr.endswith("LOADED: "), second.stderr


def test_no_cache_writes_nothing(tmp_path):
    project = _project(tmp_path)
    cache_dir = tmp_path / "cache"
    result = _cli(tmp_path, ".", "--no-cache", "--cache-dir", str(cache_dir), "-q", cwd=project)
    assert result.returncode == 1
    assert not cache_dir.exists()


def test_workers_give_the_same_output_in_the_same_order(tmp_path):
    project = _project(tmp_path)
    one = _cli(tmp_path, ".", "--no-cache", "-j", "1", "--output-format", "json", cwd=project)
    many = _cli(tmp_path, ".", "--no-cache", "-j", "3", "--output-format", "json", cwd=project)
    assert one.returncode == many.returncode == 1
    assert one.stdout == many.stdout
    assert one.stderr == many.stderr


def test_jobs_must_be_a_positive_number(tmp_path):
    result = _cli(tmp_path, ".", "-j", "0", cwd=tmp_path)
    assert result.returncode == 2
    assert "at least 1" in result.stderr


# -- the stat index: an unchanged file is answered without being read ------------------------------------


def _aged(project: Path, seconds: float = 600.0) -> None:
    """Files last modified ``seconds`` ago: older than the stat index's racy window."""
    for path in project.glob("*.py"):
        old = path.stat().st_mtime - seconds
        os.utime(path, (old, old))


_NO_READS = (  # the CLI with every way of reading a linted file (cached or not) refusing
    "import sys\n"
    "from inplace_lint.adapters import cli\n"
    "def refuse(path, *args, **kwargs):\n"
    "    raise AssertionError(f'read {path}')\n"
    "cli._cached_result = cli.check_path = refuse\n"
    "sys.exit(cli.main(sys.argv[1:]))\n"
)


def test_stat_index_answers_unchanged_files_without_reading_them(tmp_path):
    project = _project(tmp_path)
    _aged(project)
    cache_dir = tmp_path / "cache"
    args = [".", "--cache-dir", str(cache_dir), "--output-format", "json"]
    first = _cli(tmp_path, *args, cwd=project)
    assert first.returncode == 1, first.stderr
    assert any((cache_dir / "index").glob("*.json"))
    # reading any file raises: the same output can only have come from the index
    second = subprocess.run([sys.executable, "-c", _NO_READS, "check", *args], cwd=project,
                            env=_env(tmp_path), capture_output=True, text=True, timeout=300)
    assert (second.returncode, second.stdout, second.stderr) == (first.returncode, first.stdout, first.stderr)


def test_stat_index_sees_a_same_size_edit_with_its_old_mtime_restored(tmp_path):
    project = tmp_path / "project"
    project.mkdir()
    target = project / "seed.py"
    target.write_text(SEED, encoding="utf-8")
    _aged(project)
    cache_dir = tmp_path / "cache"
    args = [".", "--cache-dir", str(cache_dir), "--output-format", "json"]
    first = _cli(tmp_path, *args, cwd=project)
    assert first.returncode == 1 and "AGI001" in first.stdout
    before = target.stat()
    edited = SEED.replace("b *= b", "c = b ")  # the same length, no hazard left
    assert len(edited) == len(SEED)
    target.write_text(edited, encoding="utf-8")
    os.utime(target, ns=(before.st_atime_ns, before.st_mtime_ns))  # size and mtime as before; ctime moved
    second = _cli(tmp_path, *args, cwd=project)
    assert second.returncode == 0, second.stdout
    assert "AGI001" not in second.stdout


def test_stat_index_never_remembers_a_file_written_just_now(tmp_path):
    project = tmp_path / "project"
    project.mkdir()
    (project / "seed.py").write_text(SEED, encoding="utf-8")  # modified within the racy window
    cache_dir = tmp_path / "cache"
    first = _cli(tmp_path, ".", "--cache-dir", str(cache_dir), cwd=project)
    assert first.returncode == 1
    indexed = [json.loads(p.read_text()) for p in (cache_dir / "index").glob("*.json")]
    assert all("seed.py" not in entries for entries in indexed)
    assert any(cache_dir.glob("??/*.json"))  # the content-hash cache has it


def test_stat_index_keys_on_the_settings_and_survives_a_torn_index(tmp_path):
    project = _project(tmp_path)
    _aged(project)
    cache_dir = tmp_path / "cache"
    cached = [".", "--cache-dir", str(cache_dir), "--output-format", "json"]
    assert _cli(tmp_path, *cached, cwd=project).returncode == 1
    for flags in (["--ignore", "AGI001"], ["--select", "AGI002"], ["--assume-params-are-tensors", "false"]):
        fresh = _cli(tmp_path, ".", "--no-cache", "--output-format", "json", *flags, cwd=project)
        again = _cli(tmp_path, *cached, *flags, cwd=project)
        assert (again.returncode, again.stdout) == (fresh.returncode, fresh.stdout), flags
    for index in (cache_dir / "index").glob("*.json"):
        index.write_text('{"f00_x.py": [1, 2', encoding="utf-8")
    fresh = _cli(tmp_path, ".", "--no-cache", "--output-format", "json", cwd=project)
    torn = _cli(tmp_path, *cached, cwd=project)
    assert (torn.returncode, torn.stdout, torn.stderr) == (fresh.returncode, fresh.stdout, fresh.stderr)
