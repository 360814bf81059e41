"""Configuration: discovery, validation, per-file-ignores, exclusion, CLI overrides."""

from __future__ import annotations

import fnmatch
import textwrap
from pathlib import Path

import pytest

from inplace_lint.engine.config import (
    DEFAULT_EXCLUDE,
    ConfigError,
    Settings,
    SettingsResolver,
    find_config_file,
    iter_python_files,
    load_settings,
)


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def test_pyproject_section_is_read(tmp_path):
    config = write(
        tmp_path / "pyproject.toml",
        """
        [tool.inplace-lint]
        select = ["AGI001"]
        ignore = ["AGI002"]
        exclude = ["gen"]
        extend-exclude = ["tests/fixtures"]
        assume-params-are-tensors = false

        [tool.inplace-lint.per-file-ignores]
        "tests/*" = ["AGI001"]
        "scripts/*.py" = "AGI001,AGI002"
        """,
    )
    settings = load_settings(config)
    assert settings.select == ("AGI001",)
    assert settings.ignore == ("AGI002",)
    assert settings.exclude == ("gen",)
    assert settings.extend_exclude == ("tests/fixtures",)
    assert settings.assume_params_are_tensors is False
    assert settings.per_file_ignores == (("tests/*", ("AGI001",)), ("scripts/*.py", ("AGI001", "AGI002")))
    assert settings.root == tmp_path.resolve()
    options = settings.lint_options()
    assert options.select == ("AGI001",) and options.ignore == ("AGI002",)
    assert options.assume_params_are_tensors is False


def test_setup_cfg_section_is_read(tmp_path):
    config = write(
        tmp_path / "setup.cfg",
        """
        [flake8]
        max-line-length = 100

        [inplace-lint]
        select = AGI
        ignore = AGI002
        extend-exclude = build2, tests/fixtures
        assume-params-are-tensors = no
        per-file-ignores =
            tests/*: AGI001
            a.py,b.py: AGI001, AGI002
        """,
    )
    settings = load_settings(config)
    assert settings.select == ("AGI",)
    assert settings.ignore == ("AGI002",)
    assert settings.extend_exclude == ("build2", "tests/fixtures")
    assert settings.assume_params_are_tensors is False
    assert settings.per_file_ignores == (
        ("tests/*", ("AGI001",)),
        ("a.py", ("AGI001", "AGI002")),
        ("b.py", ("AGI001", "AGI002")),
    )


def test_discovery_walks_upward_to_the_first_file_with_the_section(tmp_path):
    write(tmp_path / "pyproject.toml", "[tool.inplace-lint]\nignore = ['AGI002']\n")
    write(tmp_path / "pkg" / "pyproject.toml", "[project]\nname = 'x'\n")  # no section: skipped
    write(tmp_path / "pkg" / "setup.cfg", "[metadata]\nname = x\n")  # no section: skipped
    deep = tmp_path / "pkg" / "sub" / "deeper"
    deep.mkdir(parents=True)
    assert find_config_file(deep) == tmp_path / "pyproject.toml"
    write(tmp_path / "pkg" / "setup.cfg", "[inplace-lint]\nignore = AGI001\n")
    assert find_config_file(deep) == tmp_path / "pkg" / "setup.cfg"
    resolver = SettingsResolver()
    assert resolver.for_path(deep / "x.py").ignore == ("AGI001",)


def test_pyproject_wins_over_setup_cfg_in_the_same_folder(tmp_path):
    write(tmp_path / "pyproject.toml", "[tool.inplace-lint]\nignore = ['AGI002']\n")
    write(tmp_path / "setup.cfg", "[inplace-lint]\nignore = AGI001\n")
    assert find_config_file(tmp_path) == tmp_path / "pyproject.toml"


@pytest.mark.parametrize(
    "text",
    [
        "[tool.inplace-lint]\nignore = ['AGI002']\n",
        "[ tool . \"inplace-lint\" ]\nignore = ['AGI002']\n",
        "tool.inplace-lint.ignore = ['AGI002']\n",
        "[tool]\ninplace-lint = {ignore = ['AGI002']}\n",
        "[tool]\n'inplace-lint'.ignore = ['AGI002']\n",
    ],
)
def test_every_spelling_of_our_table_is_read(tmp_path, text):
    write(tmp_path / "pyproject.toml", text)
    assert SettingsResolver().for_path(tmp_path / "x.py").ignore == ("AGI002",)


def test_a_pyproject_that_only_names_the_package_has_no_config(tmp_path):
    # the project's own name, a dependency on it, its script: no table, and no TOML parse to know it
    write(tmp_path / "pyproject.toml", """\
        [project]
        name = "inplace-lint"
        [project.scripts]
        inplace-lint = "inplace_lint.adapters.cli:main"
        [project.optional-dependencies]
        dev = [
            "inplace-lint>=0.1",
            "inplace-lint",
        ]
        """)
    assert find_config_file(tmp_path) is None


def test_no_config_gives_defaults(tmp_path):
    resolver = SettingsResolver()
    settings = resolver.for_path(tmp_path / "x.py")
    assert settings.select == ("AGI",)
    assert settings.exclude == DEFAULT_EXCLUDE
    assert settings.config_file is None or settings.config_file.name in ("pyproject.toml", "setup.cfg")


@pytest.mark.parametrize(
    "text, message",
    [
        ("[tool.inplace-lint]\nselekt = ['AGI']\n", "unknown key 'selekt'"),
        ("[tool.inplace-lint]\nselect = ['AGI999']\n", "unknown rule code 'AGI999'"),
        ("[tool.inplace-lint]\nignore = ['E501']\n", "unknown rule code 'E501'"),
        (
            "[tool.inplace-lint]\nselect = 'AGI001'\nassume-params-are-tensors = 'maybe'\n",
            "must be true or false",
        ),
        ("[tool.inplace-lint]\nper-file-ignores = {'x.py' = ['AGI7']}\n", "unknown rule code 'AGI7'"),
        ("[tool.inplace-lint]\nexclude = [1]\n", "must be a list of strings"),
        ("[tool.inplace-lint\nselect = 1\n", "invalid TOML"),
    ],
)
def test_bad_config_is_one_clear_error(tmp_path, text, message):
    config = write(tmp_path / "pyproject.toml", text)
    with pytest.raises(ConfigError) as error:
        load_settings(config)
    assert message in str(error.value)
    assert "\n" not in str(error.value)


def test_explicit_config_must_exist_and_have_the_section(tmp_path):
    with pytest.raises(ConfigError, match="does not exist"):
        load_settings(tmp_path / "nope.toml")
    empty = write(tmp_path / "other.toml", "[tool.black]\n")
    with pytest.raises(ConfigError, match=r"no \[tool.inplace-lint\] section"):
        load_settings(empty)


def test_prefixes_of_known_codes_are_accepted(tmp_path):
    config = write(
        tmp_path / "pyproject.toml", "[tool.inplace-lint]\nselect = ['AGI', 'AGI0', 'AGI00', 'AGI002']\n"
    )
    assert load_settings(config).select == ("AGI", "AGI0", "AGI00", "AGI002")


def test_cli_flags_override_config(tmp_path):
    write(
        tmp_path / "pyproject.toml",
        "[tool.inplace-lint]\nselect = ['AGI002']\nassume-params-are-tensors = false\n",
    )
    resolver = SettingsResolver(
        overrides={"select": ["AGI001"], "assume_params_are_tensors": True, "ignore": None}
    )
    settings = resolver.for_path(tmp_path / "a.py")
    assert settings.select == ("AGI001",)
    assert settings.assume_params_are_tensors is True
    with pytest.raises(ConfigError, match="--ignore"):
        Settings().override(ignore=["AGI9"])


def test_per_file_ignores_match_relative_paths_and_basenames(tmp_path):
    settings = Settings(
        per_file_ignores=(("tests/*", ("AGI001",)), ("conftest.py", ("AGI002",)), ("legacy", ("AGI",))),
        root=tmp_path,
    )
    assert settings.ignored_codes_for(str(tmp_path / "tests" / "deep" / "test_x.py")) == ("AGI001",)
    assert settings.ignored_codes_for(str(tmp_path / "src" / "conftest.py")) == ("AGI002",)
    assert settings.ignored_codes_for(str(tmp_path / "legacy" / "old.py")) == ("AGI",)
    assert settings.ignored_codes_for(str(tmp_path / "src" / "model.py")) == ()


def test_walk_respects_default_and_configured_excludes(tmp_path):
    write(
        tmp_path / "pyproject.toml", "[tool.inplace-lint]\nextend-exclude = ['tests/fixtures', 'gen_*.py']\n"
    )
    for name in [
        "src/a.py",
        "src/b.txt",
        "src/gen_model.py",
        "tests/test_a.py",
        "tests/fixtures/bad.py",
        ".venv/lib/x.py",
        "build/lib/y.py",
        "src/__pycache__/z.py",
    ]:
        write(tmp_path / name, "x = 1\n")
    resolver = SettingsResolver()
    found = [p.relative_to(tmp_path).as_posix() for p, _ in iter_python_files([tmp_path], resolver)]
    assert found == ["src/a.py", "tests/test_a.py"]


def test_explicit_files_are_linted_unless_force_exclude(tmp_path):
    write(tmp_path / "pyproject.toml", "[tool.inplace-lint]\nextend-exclude = ['tests/fixtures']\n")
    target = write(tmp_path / "tests" / "fixtures" / "bad.py", "x = 1\n")
    resolver = SettingsResolver()
    assert [p for p, _ in iter_python_files([target], resolver)] == [target]
    assert list(iter_python_files([target], resolver, force_exclude=True)) == []
    assert [p for p, _ in iter_python_files([tmp_path / "tests" / "fixtures"], resolver)] == [target]


def test_each_file_is_listed_once(tmp_path):
    target = write(tmp_path / "a.py", "x = 1\n")
    resolver = SettingsResolver()
    assert len(list(iter_python_files([tmp_path, target, tmp_path], resolver))) == 1


def test_nested_projects_use_their_own_config(tmp_path):
    write(tmp_path / "pyproject.toml", "[tool.inplace-lint]\nignore = ['AGI002']\n")
    write(tmp_path / "inner" / "pyproject.toml", "[tool.inplace-lint]\nignore = ['AGI001']\n")
    write(tmp_path / "a.py", "x = 1\n")
    write(tmp_path / "inner" / "b.py", "x = 1\n")
    resolver = SettingsResolver()
    ignores = {p.name: s.ignore for p, s in iter_python_files([tmp_path], resolver)}
    assert ignores == {"a.py": ("AGI002",), "b.py": ("AGI001",)}


def test_config_is_reread_when_it_changes(tmp_path):
    config = write(tmp_path / "pyproject.toml", "[tool.inplace-lint]\nignore = ['AGI002']\n")
    resolver = SettingsResolver()
    assert resolver.for_path(tmp_path / "a.py", cache_folders=False).ignore == ("AGI002",)
    config.write_text("[tool.inplace-lint]\nignore = ['AGI001', 'AGI002']\n", encoding="utf-8")
    assert resolver.for_path(tmp_path / "a.py", cache_folders=False).ignore == ("AGI001", "AGI002")


def test_cli_reports_config_errors_with_exit_2(tmp_path, capsys, monkeypatch):
    from inplace_lint.adapters.cli import main

    write(tmp_path / "pyproject.toml", "[tool.inplace-lint]\nunknown-key = 1\n")
    write(tmp_path / "a.py", "x = 1\n")
    monkeypatch.chdir(tmp_path)
    assert main(["check", "a.py"]) == 2
    err = capsys.readouterr().err
    assert err.strip().splitlines() == [
        f"inplace-lint: error: {tmp_path / 'pyproject.toml'}: unknown key 'unknown-key' (known keys: select, "
        "ignore, per-file-ignores, exclude, extend-exclude, assume-params-are-tensors, whole-program)"
    ]
    assert main(["check", "--select", "AGI9", "--config", str(tmp_path / "nope.toml"), "a.py"]) == 2
    assert "Traceback" not in capsys.readouterr().err


def test_folders_asked_in_any_order_get_the_answer_of_a_fresh_search(tmp_path):
    """The resolver answers a folder from the nearest folder above it already asked; a nested project's
    own config must still win below it, and a plain folder beside it must not inherit it."""
    write(tmp_path / "pyproject.toml", "[tool.inplace-lint]\nignore = ['AGI002']\n")
    write(tmp_path / "inner" / "setup.cfg", "[inplace-lint]\nignore = AGI001\n")
    folders = [tmp_path / "inner" / "a" / "b", tmp_path / "other" / "c", tmp_path / "inner",
               tmp_path / "other", tmp_path / "inner" / "a", tmp_path]
    for folder in folders:
        folder.mkdir(parents=True, exist_ok=True)
    for order in (folders, folders[::-1]):
        known = {}
        for folder in order:
            assert find_config_file(folder, known) == find_config_file(folder), folder


@pytest.mark.parametrize("patterns", [DEFAULT_EXCLUDE, ("tests/fixtures", "gen_*.py", "./docs/", "[ab]?.py"),
                                      ("*.py",), ("",)])
def test_exclude_patterns_match_as_fnmatch_does_one_by_one(tmp_path, patterns):
    paths = ["src/a.py", "gen_x.py", "tests/fixtures/bad.py", "docs", "docs/x.py", "ab.py", "b1.py", ".venv",
             "pkg/build", "pkg/build/lib/y.py", "node_modules/z.js", "src/__pycache__/z.py",
             "x/tests/fixtures"]
    settings = Settings(exclude=patterns, root=tmp_path)
    for path in paths:
        relative = Path(path)
        for parents in (False, True):
            candidates = [relative] + (list(relative.parents)[:-1] if parents else [])
            one_by_one = any(fnmatch.fnmatch(c.as_posix(), _normal(p)) or fnmatch.fnmatch(c.name, _normal(p))
                             for p in patterns for c in candidates)
            assert settings.is_excluded(tmp_path / path, check_parents=parents) == one_by_one, (path, parents)


def _normal(pattern: str) -> str:
    """How an exclude pattern is read: stripped, without a leading ``./`` or a trailing ``/``."""
    pattern = pattern.strip()
    pattern = pattern[2:] if pattern.startswith("./") else pattern
    return pattern.rstrip("/") or pattern


def test_exclude_patterns_are_relative_to_a_root_that_is_the_filesystem_root(tmp_path):
    # "/" already ends with the separator: the path below it is "tmp/.../a.py", not "/tmp/.../a.py"
    pattern = tmp_path.relative_to(tmp_path.anchor).as_posix() + "/*.py"
    settings = Settings(root=Path(tmp_path.anchor), exclude=(pattern,))
    assert settings.is_excluded(tmp_path / "a.py")
    assert not settings.is_excluded(tmp_path / "a.txt")
