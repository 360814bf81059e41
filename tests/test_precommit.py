"""The pre-commit hooks, installed by a real ``pre-commit`` from this repository's git HEAD.

pre-commit builds the hook environment from the committed tree (as a user's pre-commit does from a tag),
so uncommitted changes are not what runs here. The environment is cached under PRE_COMMIT_HOME (a folder
in the system temp dir, reused by later runs); building it needs PyPI for libcst and flake8, never torch.
Skipped when pre-commit or git is missing, or when this checkout is not a git repository.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SEED = textwrap.dedent("""\
    import torch
    def fn(a):
        b = a ** 2
        for i in range(5):
            b *= b
        return b
    """)
# the call is the evidence the default level needs: it passes fn a tensor that requires grad
SEED += "fn(torch.tensor(5.0, requires_grad=True)).backward()\n"

pytestmark = [
    pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed"),
    pytest.mark.skipif(
        subprocess.run([sys.executable, "-c", "import pre_commit"], capture_output=True).returncode != 0,
        reason="pre-commit is not installed",
    ),
]


def _git(cwd: Path, *args: str) -> str:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.com",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.com",
    }
    return subprocess.run(["git", *args], cwd=cwd, env=env, check=True, capture_output=True, text=True).stdout


@pytest.fixture(scope="module")
def head() -> str:
    try:
        return _git(REPO, "rev-parse", "HEAD").strip()
    except subprocess.CalledProcessError:
        pytest.skip("this checkout is not a git repository")


@pytest.fixture(scope="module")
def pre_commit_home() -> Path:
    home = Path(
        os.environ.get(
            "INPLACE_LINT_PRE_COMMIT_HOME", Path(tempfile.gettempdir()) / "inplace-lint-pre-commit"
        )
    )
    home.mkdir(parents=True, exist_ok=True)
    return home


def _pre_commit(project: Path, home: Path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env.update(PRE_COMMIT_HOME=str(home), PRE_COMMIT_COLOR="never", NO_COLOR="1")
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", *args],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_hooks_fail_on_a_finding_and_pass_once_it_is_fixed(tmp_path, head, pre_commit_home):
    project = tmp_path / "project"
    project.mkdir()
    _git(project, "init", "-q")
    (project / ".pre-commit-config.yaml").write_text(
        textwrap.dedent(f"""\
            repos:
              - repo: {REPO.as_posix()}
                rev: {head}
                hooks:
                  - id: inplace-lint
                  - id: inplace-lint-fix
                    stages: [manual]
            """),
        encoding="utf-8",
    )
    (project / "model.py").write_text(SEED, encoding="utf-8")
    (project / "README.md").write_text("not python\n", encoding="utf-8")
    _git(project, "add", ".")

    result = _pre_commit(project, pre_commit_home, "run", "inplace-lint", "--files", "model.py")
    output = result.stdout + result.stderr
    assert result.returncode == 1, output
    assert "model.py:5:9: AGI001 " in output
    assert "torch" not in _installed_packages(pre_commit_home)

    # Only a non-Python file: pre-commit skips the hook, and the run passes.
    result = _pre_commit(project, pre_commit_home, "run", "inplace-lint", "--files", "README.md")
    assert result.returncode == 0, result.stdout + result.stderr

    # The fixing hook rewrites what it safely can (the file then differs, so pre-commit fails the run once).
    result = _pre_commit(
        project, pre_commit_home, "run", "--hook-stage", "manual", "inplace-lint-fix", "--files", "model.py"
    )
    assert result.returncode == 1, result.stdout + result.stderr

    (project / "model.py").write_text(SEED.replace("b *= b", "b = b * b"), encoding="utf-8")
    result = _pre_commit(project, pre_commit_home, "run", "inplace-lint", "--all-files")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Passed" in result.stdout


def _installed_packages(home: Path) -> str:
    names = []
    for site in home.glob("repo*/py_env-*/lib/python*/site-packages"):
        names.extend(p.name.lower() for p in site.iterdir())
    return " ".join(names)
