"""Hazards across files (inplace_lint.project.linking, inplace_lint.engine.program): the issue's two-file
example through every front end, what the findings say, and what a re-run reads again."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from inplace_lint.engine import program
from inplace_lint.engine.cache import Cache
from inplace_lint.engine.core import lint_source
from inplace_lint.project import copy_worth
from inplace_lint.project.index import ProjectIndex
from inplace_lint.project.linking import Linker
from inplace_lint.project.modules import SearchPath

LAYERS = """\
import torch.nn as nn


class Act(nn.Module):
    def __init__(self):
        super().__init__()
        self.relu = nn.ReLU(inplace=True)

    def forward(self, x):
        return self.relu(x)
"""

MODEL = """\
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
"""


def write(root: Path, files: dict) -> None:
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")


@pytest.fixture(autouse=True)
def whole_program(monkeypatch):
    """Linking files with their program is opt-in (INPLACE_LINT_WHOLE_PROGRAM=1): on, here and in the
    processes started here."""
    monkeypatch.setenv(program.WHOLE_PROGRAM_ENV, "1")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    write(tmp_path, {"pyproject.toml": "[project]\nname = 'demo'\n", "demo/__init__.py": "",
                     "demo/layers.py": LAYERS, "demo/model.py": MODEL, "demo/utils.py": "SEED = 0\n"})
    return tmp_path


def run(*args: str, cwd: Path, env=None) -> subprocess.CompletedProcess:
    environment = dict(os.environ, **(env or {}))
    return subprocess.run([sys.executable, *args], cwd=cwd, capture_output=True, text=True, env=environment)


def test_the_cli_reports_both_halves_in_their_files(project: Path):
    done = run("-m", "inplace_lint", "--no-cache", "--output-format", "json", "demo", cwd=project)
    assert done.returncode == 1, done.stderr
    found = {(f["filename"], f["location"]["row"]): f for f in json.loads(done.stdout)}
    assert set(found) == {("demo/layers.py", 10), ("demo/model.py", 14)}
    at_call = found[("demo/model.py", 14)]
    assert at_call["message"].startswith("'self.act(y)' runs line 10 of demo/layers.py, where 'self.relu(...)'")
    assert "'torch.sigmoid(self.fc(x))' on line 13 saved" in at_call["message"]
    assert at_call["related"][0]["filename"] == "demo/layers.py"
    assert at_call["related"][0]["location"]["row"] == 10
    assert at_call["fix"] is None  # the fix would edit the other file
    at_write = found[("demo/layers.py", 10)]
    assert "'torch.sigmoid(self.fc(x))' on line 13 of demo/model.py saved 'x'" in at_write["message"]
    assert at_write["evidence"]["saving_path"] == "demo/model.py"
    assert at_write["related"][0]["filename"] == "demo/model.py"


def test_one_file_alone_still_reports_at_its_call(project: Path):
    done = run("-m", "inplace_lint", "--no-cache", "--output-format", "concise", "demo/model.py", cwd=project)
    assert done.returncode == 1
    assert done.stdout.splitlines() == [line for line in done.stdout.splitlines() if "demo/model.py:14:" in line]
    assert len(done.stdout.splitlines()) == 1


def test_without_the_program_each_file_is_judged_alone(project: Path):
    done = run("-m", "inplace_lint", "--no-cache", "demo", cwd=project, env={program.WHOLE_PROGRAM_ENV: "0"})
    assert done.returncode == 0, done.stdout


def test_flake8_on_the_folder(project: Path):
    pytest.importorskip("flake8")
    done = run("-m", "flake8", "--select=AGI", "demo", cwd=project)
    assert done.returncode == 1
    assert done.stdout.startswith("demo/model.py:14:16: AGI001 'self.act(y)' runs line 10 of demo/layers.py")
    done = run("-m", "flake8", "--select=AGI", ".", cwd=project / "demo")
    assert done.stdout.startswith("./model.py:14:16: AGI001 'self.act(y)' runs line 10 of layers.py")


def test_the_editor_text_of_the_other_file_counts(project: Path):
    model = project / "demo" / "model.py"
    assert [f.start.line for f in lint_source(MODEL, str(model))] == [14]
    program.set_unsaved_text(str(project / "demo" / "layers.py"), LAYERS.replace("inplace=True", "inplace=False"))
    try:
        assert lint_source(MODEL, str(model)) == []
    finally:
        program.set_unsaved_text(str(project / "demo" / "layers.py"), None)
    assert [f.start.line for f in lint_source(MODEL, str(model))] == [14]


def test_noqa_in_the_file_of_the_write_suppresses_its_half(project: Path):
    layers = project / "demo" / "layers.py"
    layers.write_text(LAYERS.replace("return self.relu(x)", "return self.relu(x)  # noqa: AGI001"))
    done = run("-m", "inplace_lint", "--no-cache", "--output-format", "concise", "demo", cwd=project)
    assert [line.split(":")[0] for line in done.stdout.splitlines()] == ["demo/model.py"]


def test_a_rerun_after_an_edit_analyses_that_file_and_its_importers_only(project: Path, tmp_path: Path):
    files = sorted((project / "demo").glob("*.py"))
    cache = Cache(tmp_path / "cache")
    lint = cache.linter(lambda source, path, options: lint_source(source, path, options))
    from inplace_lint.model.findings import LintOptions

    def lint_all():
        cache.hits = cache.misses = 0
        for file in files:
            lint(file.read_text(), str(file), LintOptions())
        return cache.misses

    assert lint_all() == 4
    assert lint_all() == 0
    (project / "demo" / "utils.py").write_text("SEED = 1\n")
    assert lint_all() == 1  # utils.py: nothing imports it
    (project / "demo" / "layers.py").write_text(LAYERS + "\n# edited\n")
    assert lint_all() == 1  # layers.py: what model.py copies from it (Act) did not change
    (project / "demo" / "layers.py").write_text(LAYERS.replace("inplace=True", "inplace=False"))
    assert lint_all() == 2  # layers.py and model.py, which copies Act from it


def test_linking_is_bounded_and_reads_each_file_once(tmp_path: Path):
    # a chain of 40 modules, each subclassing the previous one's class, and a cycle back to the start
    files = {"pyproject.toml": "", "pkg/__init__.py": ""}
    for i in range(40):
        previous = (i - 1) % 40
        files[f"pkg/m{i}.py"] = (f"import torch.nn as nn\nfrom .m{previous} import C{previous}\n\n\n"
                                 f"class C{i}(C{previous}):\n    def forward(self, x):\n        return x\n")
    write(tmp_path, files)
    linker = Linker(ProjectIndex(SearchPath.for_project(tmp_path)))
    path = tmp_path / "pkg" / "m39.py"
    linked = linker.link(path, path.read_text())
    assert 1 <= len(linked.files) <= 3 + 1  # MAX_HOPS files away at most
    assert linker.files_read == len(linked.files)
    again = linker.link(path, path.read_text())
    assert again is linked and linker.files_read == len(linked.files)


def test_the_own_lines_are_unchanged_and_copies_keep_their_lines(project: Path):
    linker = Linker(ProjectIndex(SearchPath.for_project(project)))
    linked = linker.link(project / "demo" / "model.py", MODEL)
    assert linked.text.startswith(MODEL)
    lines = linked.text.splitlines()
    write_line = next(i for i, t in enumerate(lines, 1) if "return self.relu(x)" in t)
    assert linked.origin(write_line) == (project / "demo" / "layers.py", 10)
    assert linked.origin(5) is None
    assert linked.reaching(write_line) == {"Act"}


def test_an_alias_and_a_re_export_are_followed(tmp_path: Path):
    write(tmp_path, {"pyproject.toml": "", "demo/__init__.py": "from .layers import Act\n",
                     "demo/layers.py": LAYERS,
                     "demo/model.py": MODEL.replace("from .layers import Act", "from . import Act as Activation")
                     .replace("self.act = Act()", "self.act = Activation()")})
    model = tmp_path / "demo" / "model.py"
    (finding,) = lint_source(model.read_text(), str(model))
    assert finding.start.line == 14 and finding.related[0].path.endswith("layers.py")


def test_a_definition_after_an_import_of_its_name_is_what_the_name_means(tmp_path: Path):
    # Python rebinds the name: the class below is what Model builds, not the import
    source = MODEL.replace("from .layers import Act", "from elsewhere import Act") + "\n\n" + LAYERS.split("\n\n\n")[1]
    assert [f.start.line for f in lint_source(source, "<string>")] == [23]


def test_the_language_server_with_only_model_py_open(project: Path):
    pytest.importorskip("pygls")
    pytest.importorskip("pytest_lsp")
    import asyncio

    asyncio.run(_language_server_with_only_model_py_open(project))


async def _language_server_with_only_model_py_open(project: Path):
    import asyncio

    import pytest_lsp
    from lsprotocol import types

    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    client = await pytest_lsp.ClientServerConfig(server_command=[sys.executable, "-m", "inplace_lint", "lsp"],
                                                 server_env=env).start()
    try:
        await client.initialize_session(types.InitializeParams(
            capabilities=pytest_lsp.client_capabilities("neovim"), root_uri=project.as_uri()))
        model = project / "demo" / "model.py"
        uri = model.as_uri()
        client.text_document_did_open(types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="python", version=1, text=MODEL)))
        for _ in range(3000):  # a hang, never a slow machine, ends this
            if client.diagnostics.get(uri):
                break
            await asyncio.sleep(0.02)
        (diagnostic,) = client.diagnostics[uri]
        assert (diagnostic.range.start.line, diagnostic.range.start.character) == (13, 15)
        places = {(Path(types_path(r.location.uri)).name, r.location.range.start.line)
                  for r in diagnostic.related_information}
        assert places == {("model.py", 12), ("layers.py", 9)}
        # the other file changes on disk: the open document is linted again
        (project / "demo" / "layers.py").write_text(LAYERS.replace("inplace=True", "inplace=False"))
        client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(changes=[
            types.FileEvent(uri=(project / "demo" / "layers.py").as_uri(), type=types.FileChangeType.Changed)]))
        for _ in range(3000):
            if not client.diagnostics.get(uri):
                break
            await asyncio.sleep(0.02)
        assert list(client.diagnostics[uri]) == []
    finally:
        await client.shutdown_session()
        await client.stop()


def types_path(uri: str) -> str:
    from pygls.uris import to_fs_path

    return to_fs_path(uri)


def test_off_unless_asked_for(project: Path, monkeypatch):
    monkeypatch.delenv(program.WHOLE_PROGRAM_ENV)
    done = run("-m", "inplace_lint", "--no-cache", "demo", cwd=project)
    assert done.returncode == 0, done.stdout


@pytest.mark.parametrize("how", ["flag", "config", "flake8", "flake8 config"])
def test_asked_for_by_flag_or_setting(project: Path, monkeypatch, how: str):
    monkeypatch.delenv(program.WHOLE_PROGRAM_ENV)
    if how == "flag":
        done = run("-m", "inplace_lint", "--no-cache", "--whole-program", "demo", cwd=project)
    elif how == "config":
        (project / "pyproject.toml").write_text("[project]\nname = 'demo'\n\n[tool.inplace-lint]\n"
                                                "whole-program = true\n", encoding="utf-8")
        done = run("-m", "inplace_lint", "--no-cache", "demo", cwd=project)
    elif how == "flake8":
        pytest.importorskip("flake8")
        done = run("-m", "flake8", "--select=AGI", "--inplace-lint-whole-program=true", "demo", cwd=project)
    else:
        pytest.importorskip("flake8")
        (project / "setup.cfg").write_text("[flake8]\ninplace-lint-whole-program = true\n", encoding="utf-8")
        done = run("-m", "flake8", "--select=AGI", "demo", cwd=project)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "demo/model.py:14:16: AGI001 'self.act(y)' runs line 10 of demo/layers.py" in done.stdout
    if how == "flag":
        off = run("-m", "inplace_lint", "--no-cache", "--no-whole-program", "demo", cwd=project)
        assert off.returncode == 0, off.stdout


GRAD_OFF_UTILS = """
    import torch


    def smart_inference_mode():
        def decorate(fn):
            return torch.no_grad()(fn)
        return decorate
"""
ENCODER = """
    import torch
    import torch.nn as nn

    from .utils import smart_inference_mode


    class Encoder(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(4, 4)

        @smart_inference_mode()
        def encode(self, x):
            y = torch.sigmoid(self.fc(x))
            y *= 2
            return y
"""


def test_a_grad_off_decorator_of_another_file_counts(tmp_path: Path, monkeypatch):
    """ultralytics' smart_inference_mode: the decorator writes nothing, but what it wraps runs under
    no_grad (torch then saves nothing there), so it is linked when the file decorates with it."""
    write(tmp_path, {"pyproject.toml": "[project]\nname = 'demo'\n", "demo/__init__.py": "",
                     "demo/utils.py": GRAD_OFF_UTILS, "demo/model.py": ENCODER})
    assert run("-m", "inplace_lint", "--no-cache", "demo", cwd=tmp_path).returncode == 0
    monkeypatch.delenv(program.WHOLE_PROGRAM_ENV)
    alone = run("-m", "inplace_lint", "--no-cache", "demo", cwd=tmp_path)
    assert alone.returncode == 1 and "demo/model.py:16:9: AGI001" in alone.stdout


FROZEN_NORM = """
    import torch
    import torch.nn as nn


    class FrozenNorm(nn.Module):
        def __init__(self, n):
            super().__init__()
            self.register_buffer("weight", torch.ones(n))
            self.register_buffer("bias", torch.zeros(n))


    def replace_norm(model):
        for name, module in model.named_children():
            if isinstance(module, nn.BatchNorm2d):
                frozen = FrozenNorm(module.num_features)
                frozen.weight.copy_(module.weight)
                frozen.bias.copy_(module.bias)
                model._modules[name] = frozen
"""
USES_REPLACE = """
    from .norms import replace_norm


    def freeze(model):
        replace_norm(model)
        return model
"""


def test_a_class_a_copy_uses_is_copied_with_it(tmp_path: Path):
    """transformers' replace_batch_norm: copied for its writes, it builds a class whose weight and bias
    are buffers; without that class beside it, the copy's writes read as writes to parameters."""
    write(tmp_path, {"pyproject.toml": "[project]\nname = 'demo'\n", "demo/__init__.py": "",
                     "demo/norms.py": FROZEN_NORM, "demo/freeze.py": USES_REPLACE})
    done = run("-m", "inplace_lint", "--no-cache", "demo", cwd=tmp_path)
    assert done.returncode == 0, done.stdout


def test_the_lint_gets_the_tree_of_the_linked_text_once(project: Path):
    linker = Linker(ProjectIndex(SearchPath.for_project(project)), writes_in_place=copy_worth.writes_in_place)
    linked = linker.link(project / "demo" / "model.py", MODEL)
    assert linked.regions
    tree = linker.tree_of(linked.text)
    assert ast.dump(tree, include_attributes=True) == ast.dump(ast.parse(linked.text), include_attributes=True)
    assert linker.tree_of(linked.text) is None
    utils = project / "demo" / "utils.py"
    alone = linker.link(utils, utils.read_text())
    assert not alone.regions
    assert ast.dump(linker.tree_of(alone.text)) == ast.dump(ast.parse(alone.text))


def test_only_the_definitions_reached_are_read_for_the_names_they_use(tmp_path: Path):
    layers = LAYERS + textwrap.dedent("""

        def unused(x):
            return x.add_(1)


        A = (1,
             2); B = unused
    """)
    write(tmp_path, {"pyproject.toml": "", "demo/__init__.py": "", "demo/layers.py": layers,
                     "demo/model.py": MODEL})
    linker = Linker(ProjectIndex(SearchPath.for_project(tmp_path)), writes_in_place=copy_worth.writes_in_place)
    model = tmp_path / "demo" / "model.py"
    linker.link(model, MODEL)
    facts = linker.facts(tmp_path / "demo" / "layers.py")
    assert list(facts.loads) == [facts.definitions["Act"]]
    # a statement starting on the line another one ends is read from the whole text
    assert facts.loads_of(facts.definitions["B"]) == {"unused"}
    assert facts.loads_of(facts.definitions["unused"]) == {"x"}


@pytest.mark.parametrize("text, writes", [
    ("def f(x):\n    x.add_(1)", True),
    ("def f(x):\n    y = x.view(-1)\n    y.add_(1)", True),
    ("def f(x):\n    y = x.float()\n    y.add_(1)", True),  # float() may return x itself
    ("def f(x):\n    torch.relu_(x)", True),
    ("def f(xs):\n    for x in xs:\n        x.mul_(2)", True),
    ("def f(x):\n    def g():\n        x.add_(1)\n    g()", True),
    ("def f(x, out=None):\n    torch.add(x, 1, out=out)", True),
    ("def f(d):\n    d[k] = 1", True),
    ("def f(m, lr):\n    with torch.no_grad():\n        for p in m.parameters():\n            p -= lr * p.grad", True),
    ("def f(opt):\n    opt.step()", True),
    ("class A(nn.Module):\n    def __init__(self, inplace=False):\n        self.r = nn.ReLU(inplace=inplace)", True),
    ("class A(nn.Module):\n    def __init__(self):\n        self.r = nn.ReLU(True)", True),
    ("class A(nn.Module):\n    def forward(self, x):\n        y = self.conv(x)\n        y.mul_(2)\n        return y", True),
    # what it makes itself, its module's globals, initialisation under no_grad
    ("def f(x, p):\n    r = x.new_empty(x.shape).bernoulli_(p)\n    r.div_(p)\n    return x * r", False),
    ("def f(x):\n    y = torch.zeros(3, 4)\n    y[0] = 1\n    return x * y", False),
    ("def f(a: Optional[int] = None, **kwargs):\n    kwargs['a'] = a\n    return g(**kwargs)", False),
    ("def f(d: Optional[Dict] = None):\n    d = d or {}\n    d[k] = 1", False),
    ("def f(sd, n):\n    w = n + '.weight'\n    sd[w] = 1", False),
    ("def f(self):\n    body = [self.name]\n    body += [self.x]\n    return body", False),
    ("def f(t):\n    n = len(t)\n    n -= 1\n    return n", False),
    ("def f(x):\n    _REGISTRY[x] = 1", False),
    ("def f(m):\n    nn.init.zeros_(m.bias)", False),
    ("def f(x):\n    with torch.no_grad():\n        x.mul_(2)", False),
    ("class A:\n    def __init__(self):\n        self.o = defaultdict(dict)\n    def h(self, k, x):\n"
     "        self.o[x.device][k] = x", False),
])
def test_what_a_definition_may_write_that_its_caller_holds(text: str, writes: bool):
    assert copy_worth.writes_in_place(text) is writes


def _judging_linker(root: Path) -> Linker:
    """A linker of ``root`` that copies what the engine's does (program.linker_for's hooks)."""
    return Linker(ProjectIndex(SearchPath.for_project(root)), writes_in_place=copy_worth.writes_in_place,
                  uses=copy_worth.names_run_with_grad)


def test_a_helper_writing_only_what_it_makes_is_not_copied(tmp_path: Path):
    helpers = "import torch\n\n\ndef noise(x):\n    r = x.new_zeros(x.shape)\n    r.add_(1)\n    return x * r\n"
    model = "import torch\nfrom .helpers import noise\n\n\ndef f(x):\n    y = torch.sigmoid(x)\n    return noise(y)\n"
    write(tmp_path, {"pyproject.toml": "", "demo/__init__.py": "", "demo/helpers.py": helpers, "demo/model.py": model})
    linker = _judging_linker(tmp_path)
    assert not linker.link(tmp_path / "demo" / "model.py", model).regions
    (tmp_path / "demo" / "helpers.py").write_text(helpers.replace("r.add_(1)", "x.add_(1)"))
    assert [r.name for r in linker.link(tmp_path / "demo" / "model.py", model).regions] == ["noise"]


def test_a_helper_called_only_under_no_grad_does_not_count(tmp_path: Path):
    init = ("import torch\n\n\ndef _fill(t):\n    t.uniform_()\n\n\ndef fill_(t):\n    with torch.no_grad():\n"
            "        return _fill(t)\n\n\ndef fill_with_grad(t):\n    return _fill(t)\n")
    model = "from .init import fill_, fill_with_grad\n"
    write(tmp_path, {"pyproject.toml": "", "demo/__init__.py": "", "demo/init.py": init, "demo/model.py": model})
    linker = _judging_linker(tmp_path)
    init_py = tmp_path / "demo" / "init.py"
    assert not linker.worth_copying(init_py, "fill_")
    assert linker.worth_copying(init_py, "fill_with_grad")


def test_a_definition_whose_words_name_nothing_worth_copying_is_not_parsed(tmp_path: Path):
    helpers = "import torch\n\n\ndef scale(x):\n    return x * SCALE\n\n\nSCALE = 2\n"
    model = "import torch\nfrom .helpers import scale\n\n\ndef f(x):\n    return scale(torch.sigmoid(x))\n"
    write(tmp_path, {"pyproject.toml": "", "demo/__init__.py": "", "demo/helpers.py": helpers, "demo/model.py": model})
    linker = _judging_linker(tmp_path)
    assert not linker.link(tmp_path / "demo" / "model.py", model).regions
    facts = linker.facts(tmp_path / "demo" / "helpers.py")
    assert facts.loads == {}  # neither scale nor SCALE was parsed for its names
