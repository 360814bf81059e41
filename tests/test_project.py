"""The program around a file (inplace_lint/project/): its root, where imports lead, a summary store."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

from inplace_lint.project.index import ProjectIndex, imports_in
from inplace_lint.project.modules import (
    SearchPath,
    absolute_module,
    find_project_root,
    module_file,
    module_name,
    resolve_from_import,
)


def write(root: Path, files: dict) -> None:
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))


def two_file_model(root: Path) -> None:
    """The issue's two-file example: the in-place activation in one file, the save in the other."""
    write(root, {
        "pyproject.toml": "[project]\nname = 'demo'\n",
        "demo/__init__.py": "",
        "demo/layers.py": """
            import torch.nn as nn

            class Act(nn.Module):
                def __init__(self):
                    super().__init__()
                    self.relu = nn.ReLU(inplace=True)

                def forward(self, x):
                    return self.relu(x)
            """,
        "demo/model.py": """
            import torch
            import torch.nn as nn
            from .layers import Act

            class Model(nn.Module):
                def __init__(self):
                    super().__init__()
                    self.fc = nn.Linear(4, 4)
                    self.act = Act()

                def forward(self, x):
                    y = torch.sigmoid(self.fc(x))
                    return self.act(y)
            """,
        "demo/utils.py": "SEED = 0\n",
        "train.py": "from demo.model import Model\nimport demo.layers as layers\nfrom demo import utils\n",
    })


def test_the_root_is_the_nearest_folder_with_a_marker(tmp_path):
    two_file_model(tmp_path)
    assert find_project_root(tmp_path / "demo" / "model.py") == tmp_path
    loose = tmp_path / "elsewhere"
    loose.mkdir()
    (loose / "script.py").write_text("")
    # no marker above (tmp dirs have none up to /tmp ... or the real root, which may): never below start
    assert find_project_root(loose / "script.py") in (loose, *loose.parents)


def test_module_names_and_files_round_trip(tmp_path):
    two_file_model(tmp_path)
    search = SearchPath.for_project(tmp_path)
    assert module_file("demo.layers", search) == tmp_path / "demo" / "layers.py"
    assert module_file("demo", search) == tmp_path / "demo" / "__init__.py"
    assert module_file("demo.missing", search) is None
    assert module_file("torch", search) is None  # not on this search path: unknown, never a guess
    assert module_name(tmp_path / "demo" / "model.py", search) == "demo.model"
    assert module_name(tmp_path / "demo" / "__init__.py", search) == "demo"


def test_relative_imports_climb_from_the_importer():
    assert absolute_module("pkg.sub.mod", False, 1, "layers") == "pkg.sub.layers"
    assert absolute_module("pkg.sub.mod", False, 2, None) == "pkg"
    assert absolute_module("pkg.sub", True, 1, "mod") == "pkg.sub.mod"  # inside pkg/sub/__init__.py
    assert absolute_module("mod", False, 2, "x") is None  # above the top package
    assert absolute_module("a.b", False, 0, "x.y") == "x.y"


def test_from_import_binds_submodules_and_attributes(tmp_path):
    two_file_model(tmp_path)
    search = SearchPath.for_project(tmp_path)
    act = resolve_from_import("demo.model", False, 1, "layers", [("Act", None)], search)
    assert [(t.bound, t.module, t.file.name, t.attribute) for t in act] == [("Act", "demo.layers", "layers.py", "Act")]
    module = resolve_from_import("demo.model", False, 1, None, [("layers", "L")], search)
    assert [(t.bound, t.module, t.attribute) for t in module] == [("L", "demo.layers", None)]


def test_src_layout_and_installed_packages_resolve_read_only(tmp_path):
    write(tmp_path / "proj", {"setup.cfg": "", "src/app/__init__.py": "", "src/app/main.py": "import lib.acts\n"})
    write(tmp_path / "site", {"lib/__init__.py": "raise SystemExit('imported!')\n", "lib/acts.py": "X = 1\n"})
    search = SearchPath.for_project(tmp_path / "proj", site_dirs=[tmp_path / "site"])
    index = ProjectIndex(search)
    main = tmp_path / "proj" / "src" / "app" / "main.py"
    assert module_name(main, search) == "app.main"
    assert index.dependencies(main) == [tmp_path / "site" / "lib" / "acts.py"]
    assert "lib" not in sys.modules  # found as a type checker finds it: nothing imported, nothing run


def test_imports_anywhere_in_a_file_count_and_bad_text_has_none():
    source = "import a\n\ndef f():\n    from .b import c as d\n"
    assert imports_in(source) == [(0, None, [("a", None)], False), (1, "b", [("c", "d")], True)]
    assert imports_in("def broken(:\n") == []


def test_dependents_follow_the_graph_backwards(tmp_path):
    two_file_model(tmp_path)
    index = ProjectIndex(SearchPath.for_project(tmp_path))
    files = sorted(tmp_path.rglob("*.py"))
    layers = tmp_path / "demo" / "layers.py"
    assert index.dependents(layers, files) == {tmp_path / "demo" / "model.py", tmp_path / "train.py"}
    assert index.dependents(tmp_path / "train.py", files) == set()


def _summariser(calls: list):
    def compute(path: Path, text: str, deps: dict):
        calls.append(path.name)
        return (path.name, len(text), tuple(sorted((d.name, s) for d, s in deps.items())))
    return compute


def test_an_edit_recomputes_only_the_file_and_what_imports_it(tmp_path):
    two_file_model(tmp_path)
    index = ProjectIndex(SearchPath.for_project(tmp_path))
    calls: list = []
    compute = _summariser(calls)
    train, layers = tmp_path / "train.py", tmp_path / "demo" / "layers.py"
    first = index.summary(train, compute)
    assert sorted(calls) == ["layers.py", "model.py", "train.py", "utils.py"]
    calls.clear()
    assert index.summary(train, compute) == first and calls == []  # nothing changed: nothing computed

    index.update(layers, layers.read_text() + "\nEXTRA = 1\n")  # the editor changes layers.py
    index.summary(train, compute)
    assert sorted(calls) == ["layers.py", "model.py", "train.py"]  # not utils.py, which needs no layers
    calls.clear()
    index.update(train, "from demo.model import Model\n")
    index.summary(train, compute)
    assert calls == ["train.py"]


def test_cycles_are_cut_not_followed(tmp_path):
    write(tmp_path, {"setup.py": "", "a.py": "import b\n", "b.py": "import a\n"})
    index = ProjectIndex(SearchPath.for_project(tmp_path))
    calls: list = []
    result = index.summary(tmp_path / "a.py", _summariser(calls))
    assert sorted(calls) == ["a.py", "b.py"]
    b_summary = dict(result[2])["b.py"]
    assert dict(b_summary[2]) == {"a.py": None}  # b sees a as unknown


def test_a_long_chain_is_bounded(tmp_path):
    files = {"setup.py": ""}
    for i in range(200):
        files[f"m{i}.py"] = f"import m{i + 1}\n"
    write(tmp_path, files)
    index = ProjectIndex(SearchPath.for_project(tmp_path))
    calls: list = []
    index.summary(tmp_path / "m0.py", _summariser(calls))
    assert len(calls) <= 70  # MAX_DEPTH files, then the rest is unknown
