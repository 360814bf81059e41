"""The speed-ups never change findings.

The unit selection (``inplace_lint/syntax/select.py``) hands the analysis a line-preserving reduced text, which
the analysis first looks at on a tree built from ``ast`` (``inplace_lint/syntax/cst_from_ast.py``; LibCST
parses it only if that look finds a hazard); these tests lint every fixture, and a sample of real code
when the benchmark corpus is downloaded, with both (``reduce=True``) and without either (LibCST's parse
of the whole text), and require identical findings: every field of every finding (code, range,
message, evidence, fix), or the same LintError. ``--run-slow`` compares whole corpora.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from inplace_lint.engine.core import LintError, Memo, lint_with_tree
from inplace_lint.model.findings import LintOptions
from inplace_lint.syntax.lines import lines_with_breaks
from inplace_lint.syntax.select import select

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = sorted((ROOT / "tests" / "fixtures").rglob("*.py"))
CORPUS = ROOT / "benchmarks" / ".cache"


@pytest.fixture(autouse=True)
def _debug(monkeypatch):
    """Analysis errors raise (INPLACE_LINT_DEBUG=1) instead of silently dropping a unit."""
    from inplace_lint.model import debug

    monkeypatch.setattr(debug, "DEBUG", True)


def _outcome(source: str, path: str, reduce: bool):
    try:
        return [f.to_dict() for f in lint_with_tree(source, None, path, reduce=reduce)]
    except LintError as error:
        return ("LintError", str(error), error.line, error.column)


def _outcome_in_pieces(source: str, path: str, memo):
    """The language server's way: the reduced text parsed (and positioned) one top-level piece at a time,
    pieces of unchanged text taken from ``memo``."""
    try:
        return [f.to_dict() for f in lint_with_tree(source, None, path, memo=memo)]
    except LintError as error:
        return ("LintError", str(error), error.line, error.column)


def _assert_same(path: Path) -> None:
    try:
        source = path.read_bytes().decode("utf-8")
    except UnicodeDecodeError:
        pytest.skip(f"{path} is not UTF-8")
    full = _outcome(source, str(path), reduce=False)
    reduced = _outcome(source, str(path), reduce=True)
    assert reduced == full, f"{path}: the reduced text changes the findings"
    memo = Memo()
    assert _outcome_in_pieces(source, str(path), memo) == full, f"{path}: parsing in pieces changes the findings"
    # an edit that moves every line: the cached pieces are reused, their positions moved down
    moved = "\n" + source
    assert _outcome_in_pieces(moved, str(path), memo) == _outcome(moved, str(path), reduce=True), \
        f"{path}: reused pieces change the findings"


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: str(p.relative_to(ROOT / "tests" / "fixtures")))
def test_fixture_findings_unchanged(path):
    _assert_same(path)


def _sample(name: str, every: int, limit_bytes: int):
    root = CORPUS / name
    if not (root / ".unpacked").exists():
        return []
    files = sorted(root.rglob("*.py"))[::every]
    out, total = [], 0
    for path in files:
        size = path.stat().st_size
        if total + size > limit_bytes:
            continue
        out.append(path)
        total += size
    return out


CORPUS_SAMPLE = _sample("timm", 6, 450_000) + _sample("transformers", 97, 350_000) + _sample(
    "torchvision", 9, 200_000
)


@pytest.mark.skipif(not CORPUS_SAMPLE, reason="benchmark corpus not downloaded (python -m benchmarks.corpus)")
@pytest.mark.parametrize("path", CORPUS_SAMPLE, ids=lambda p: str(p.relative_to(CORPUS)))
def test_corpus_sample_findings_unchanged(path):
    _assert_same(path)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["timm", "torchvision", "transformers"])
def test_whole_corpus_findings_unchanged(name):
    root = CORPUS / name
    if not (root / ".unpacked").exists():
        pytest.skip(f"{name} not downloaded")
    differing = []
    for path in sorted(root.rglob("*.py")):
        try:
            source = path.read_bytes().decode("utf-8")
        except UnicodeDecodeError:
            continue
        full = _outcome(source, str(path), False)
        if full != _outcome(source, str(path), True) or full != _outcome_in_pieces(source, str(path), Memo()):
            differing.append(str(path))
    assert not differing


# --- the reduced text itself ---------------------------------------------------------------------------

EDGE_CASES = {
    "decorated nested def first": (
        "import torch\n\ndef outer(k):\n    @wraps(k)\n    def inner(x):\n        return k(x)\n\n"
        "    return inner\n"
    ),
    "one-line suites": (
        "import torch\ndef f(x): return x.exp()\ndef g(x): y = x; return y  # c\nclass A: pass\n"
    ),
    "semicolons": "import torch\nx = 1; y = 2\ndef f(a):\n    a = a + 1; return a\nz = 3\n",
    "crlf and lone cr": (
        "import torch\r\ndef f(x):\r\n    y = x * 2\r\n    return y\rdef g(x):\r    return x\r"
    ),
    "form feed and tabs": (
        "import torch\n\x0c\ndef f(x):\n\treturn x\n\x0cdef g(x):\n\tx.add_(1)\n\treturn x\n"
    ),
    "non-ascii": (
        "import torch\ndef f(é):\n    \"ünïcode\"; return é\ndef g(x):\n    x += 1  # ü\n    return x\n"
    ),
    "class-level statements": (
        "import torch\nclass M(torch.nn.Module):\n    '''doc'''\n    a = 1\n    b: int = 2\n\n"
        "    def forward(self, x):\n        x += 1\n        return x\n"
    ),
    "nested class in function": (
        "import torch\ndef f(x):\n    class A:\n        def m(self):\n            return 1\n    return A\n"
        "def g(x):\n    x.mul_(2)\n    return x\n"
    ),
    "no trailing newline": "import torch\ndef f(x):\n    return x\ndef g(x):\n    x.add_(1)",
    "multi-line strings": (
        'import torch\ndef f(x):\n    s = """\n  a\n"""\n    return s\ndef g(x):\n    x.add_(1)\n'
    ),
    "top-level noise": (
        "import torch\nCFG = {\n  'a': 1,\n}\nif __name__ == '__main__':\n    print(CFG)\n"
        "def g(x):\n    x.add_(1)\n    return x\n"
    ),
}


@pytest.mark.parametrize("name", sorted(EDGE_CASES))
def test_reduced_text_keeps_every_kept_line(name):
    source = EDGE_CASES[name]
    selection = select(source)
    if selection.source is None:
        return
    reduced = selection.source
    ast.parse(reduced)  # still Python
    original_lines = lines_with_breaks(source)
    reduced_lines = lines_with_breaks(reduced)
    assert len(reduced_lines) >= len(original_lines)
    for old, new in zip(original_lines, reduced_lines):
        # a line is either kept as it was, or blanked (only whitespace, pass or a string quote left)
        assert new == old or re.fullmatch(r'[ \t\x0c]*(pass|""")?[^\r\n]*(\r\n|\r|\n)?', new), (old, new)
    # the part after the original's last line holds only witness names
    for extra in reduced_lines[len(original_lines):]:
        assert re.fullmatch(r"\w*\r?\n?", extra)


def test_no_libcst_parse_when_nothing_can_write(monkeypatch):
    import inplace_lint.engine.core as engine

    def fail(text):
        raise AssertionError("LibCST parse")

    monkeypatch.setattr(engine, "parse", fail)
    source = "import torch\n\ndef f(x):\n    return torch.relu(x) * 2\n\nclass M(torch.nn.Module):\n" \
             "    def forward(self, x):\n        return self.f(x)\n"
    assert lint_with_tree(source, None, "m.py") == []


def test_unparsable_text_reports_as_before():
    source = "import torch\ndef f(x:\n    x.add_(1)\n"
    assert _outcome(source, "bad.py", True) == _outcome(source, "bad.py", False)
    assert _outcome(source, "bad.py", True)[0] == "LintError"


# --- soft triggers: in-place syntax that writes no tensor -----------------------------------------------

# Each of these has in-place syntax, but on a name bound only to literals: the analysis sees a Python
# rebinding or a container store, so the file is not parsed by LibCST at all.
NEVER_WRITES_A_TENSOR = {
    "counter": "import torch\ndef f(xs):\n    n = 0\n    for x in xs:\n        n += 1\n    return n\n",
    "counter from counter": "import torch\ndef f(xs):\n    a = 0\n    b = 1\n    for x in xs:\n"
                            "        a += b\n        b *= 2\n    return a\n",
    "string": "import torch\ndef f(x):\n    s = ''\n    s += 'a'\n    return s, torch.exp(x)\n",
    "dict store": "import torch\ndef f(x):\n    out = {}\n    out[x] = torch.exp(x)\n    return out\n",
    "string key": "import torch\ndef f(cfg, x):\n    cfg['y'] = x.exp()\n    return cfg\n",
    "list of tensors store": "import torch\ndef f(x):\n    hs = [None] * 3\n    hs[0] = x.exp()\n"
                             "    return hs\n",
    "tuple accumulation": "import torch\ndef f(x):\n    outs = ()\n    outs += (x.exp(),)\n    return outs\n",
    "positional True to a plain function": "import torch\ndef f(x):\n    return g(x, True)\n",
    "top-level table extended once": "import torch\nimport other\nTABLE = [1, 2]\nTABLE += other.more\n"
                                     "TABLE2 = {}\nfor k in 'ab':\n    TABLE2[k] = []\n",
}

# ... and these can write a tensor: they must still be analysed.
MAY_WRITE_A_TENSOR = {
    "accumulator becomes a tensor": "import torch\ndef f(xs):\n    total = 0\n    for x in xs:\n"
                                    "        total += x.exp()\n    return total\n",
    "rebound to a tensor": "import torch\ndef f(x):\n    n = 0\n    n = x.exp()\n    n += 1\n    return n\n",
    "parameter": "import torch\ndef f(n):\n    n += 1\n    return n\n",
    "global": "import torch\nn = torch.ones(2)\ndef f():\n    global n\n    n = 0\n    n += 1\n",
    "module-level name": "import torch\nn = torch.ones(2)\ndef f(c):\n    if c:\n        n = 0\n    n += 1\n",
    "store into a tensor": "import torch\ndef f(x):\n    y = x.exp()\n    y[0] = 1\n    return y\n",
    "list element in place": "import torch\ndef f(x):\n    hs = [x.exp()]\n    hs[0] += 1\n    return hs\n",
    "table extended in a loop": "import torch\nimport other\nTABLE = []\nfor t in other.parts:\n"
                                "    TABLE += t\n",
    "nn.ReLU(True)": "import torch\nfrom torch import nn\nact = nn.ReLU(True)\n",
    "aliased ReLU(True)": "import torch\nfrom torch.nn import ReLU as R\ndef f():\n    return R(True)\n",
}


@pytest.mark.parametrize("name", sorted(NEVER_WRITES_A_TENSOR))
def test_soft_trigger_on_literals_needs_no_parse(name):
    assert select(NEVER_WRITES_A_TENSOR[name]).source is None


@pytest.mark.parametrize("name", sorted(MAY_WRITE_A_TENSOR))
def test_soft_trigger_that_may_write_a_tensor_is_analysed(name):
    source = MAY_WRITE_A_TENSOR[name]
    assert select(source).source is not None
    assert _outcome(source, "m.py", True) == _outcome(source, "m.py", False)


# --- the language server's memo -----------------------------------------------------------------------

# hazard(a) has no caller: its finding rests on the opt-in level's assumption that a requires grad
ASSUMED = LintOptions(assume_params_are_tensors=True)
MEMO_SOURCE = (
    "import torch\n\ndef scale(x):\n    return x * 2\n\ndef hazard(a):\n    b = a.exp()\n    b.add_(1)\n"
    "    return b\n"
)


def test_memo_answers_an_edit_the_analysis_cannot_see(monkeypatch):
    import inplace_lint.engine.core as engine

    memo = engine.Memo()
    first = lint_with_tree(MEMO_SOURCE, None, "m.py", ASSUMED, memo=memo)
    assert [f.code for f in first] == ["AGI001"]

    def fail(text):
        raise AssertionError("LibCST parse")

    monkeypatch.setattr(engine, "parse", fail)
    # scale() cannot hold a finding: the selection blanks it, so the analysed text is the same
    edited = MEMO_SOURCE.replace("x * 2", "x * 3")
    assert lint_with_tree(edited, None, "m.py", ASSUMED, memo=memo) == first
    assert memo.hits == 1


def test_memo_reanalyses_an_edit_it_can_see():
    import inplace_lint.engine.core as engine

    memo = engine.Memo()
    lint_with_tree(MEMO_SOURCE, None, "m.py", ASSUMED, memo=memo)
    for edited in (MEMO_SOURCE.replace("b.add_(1)", "b = b.add(1)"),  # the finding goes away
                   MEMO_SOURCE.replace("def scale", "\ndef scale")):  # every line below moves
        assert lint_with_tree(edited, None, "m.py", ASSUMED, memo=memo) == \
            lint_with_tree(edited, None, "m.py", ASSUMED)
    assert memo.hits == 0


def test_an_edit_reparses_only_its_piece():
    import inplace_lint.engine.core as engine

    source = MEMO_SOURCE + "\ndef other(a):\n    c = a.sigmoid()\n    c.mul_(2)\n    return c\n"
    memo = engine.Memo()
    first = lint_with_tree(source, None, "m.py", ASSUMED, memo=memo)
    assert [f.code for f in first] == ["AGI001", "AGI001"]
    parsed = memo.parsed_pieces
    edited = source.replace("b.add_(1)", "b.add_(1)\n    b.add_(2)")  # one more line in hazard()
    again = lint_with_tree(edited, None, "m.py", ASSUMED, memo=memo)
    assert memo.parsed_pieces == parsed + 1  # hazard() only; other() is reused, one line further down
    assert again == lint_with_tree(edited, None, "m.py", ASSUMED)
    assert again[-1].start.line == first[-1].start.line + 1


def test_lint_restores_the_collector_thresholds():
    import gc

    before = gc.get_threshold()
    lint_with_tree(MEMO_SOURCE, None, "m.py")
    assert gc.get_threshold() == before


def test_parse_leaves_libcst_validation_on():
    """The engine's parse skips LibCST's per-node validation; nodes built afterwards are validated."""
    import libcst as cst

    import inplace_lint.engine.core as engine

    engine.parse("x = 1\n")
    with pytest.raises(cst.CSTValidationError):
        cst.Name("")


def test_pieces_take_the_indent_of_the_first_indented_block():
    import inplace_lint.engine.core as engine

    source = ("import torch\nif True: pass\ndef f(a):\n    b = a.exp()\n    b.add_(1)\n    return b\n"
              "def g(a):\n  c = a.exp()\n  c.add_(1)\n  return c\n")
    whole = engine.parse(source)
    pieces = engine._parse_pieces(source, [1, 2, 3, 7], engine.Memo())
    assert engine._assemble(pieces).default_indent == whole.default_indent == "    "
    assert lint_with_tree(source, None, "m.py", memo=engine.Memo()) == lint_with_tree(source, None, "m.py")


@pytest.mark.parametrize("path", [p for p in FIXTURES if "AGI00" in str(p)][::7],
                         ids=lambda p: str(p.relative_to(ROOT / "tests" / "fixtures")))
def test_a_session_of_edits_in_pieces_matches_fresh_lints(path):
    """An editing session: blank lines and comments inserted and removed all over the file, each version
    linted with the document's memo (reused pieces, moved positions) and afresh."""
    import random

    lines = path.read_text(encoding="utf-8").split("\n")
    rng = random.Random(str(path.name))
    memo = Memo()
    for _step in range(12):
        index = rng.randrange(len(lines))
        if lines[index].strip() in ("", "# note") and rng.random() < 0.5:
            del lines[index]
        else:
            lines.insert(index, rng.choice(["", "# note"]))
        text = "\n".join(lines)
        assert _outcome_in_pieces(text, str(path), memo) == _outcome(text, str(path), reduce=True)


HOOKS_BY_TYPE = '''
import torch
from torch import nn


def clip_(module, inputs, output):
    output.clamp_(-0.5, 0.5)


def install_clipping(model):
    for m in model.modules():
        if isinstance(m, nn.Tanh):
            m.register_forward_hook(clip_)


def train(model, x):
    out = model(x)
    out.sum().backward()
'''


def test_memo_sees_the_backward_the_reduced_text_blanks():
    # whether the whole text runs a backward decides hooks put on every Tanh (train() is blanked): an edit
    # removing the backward must not be answered from the memo
    memo = Memo()
    assert [f.code for f in lint_with_tree(HOOKS_BY_TYPE, None, "h.py", memo=memo)] == ["AGI001"]
    edited = HOOKS_BY_TYPE.replace("out.sum().backward()", "print(out.sum())")
    assert lint_with_tree(edited, None, "h.py", memo=memo) == []
    assert lint_with_tree(edited, None, "h.py", reduce=False) == []


_ODD_LAYOUTS = [
    "import torch\nprint('a')\nprint((1,\n       2)); SCALE = 2\n"
    "def f(x):\n    y = torch.exp(x)\n    y.mul_(SCALE)\n    return y\n",
    "import torch\n\n\n# a comment\n\n@decorator(\n    1)\n# between\n@other\n"
    "def f(x):\n    x.add_(1)\n    return x\n",
    "import torch; a = 1\nb = torch.ones(2); b.mul_(2)\n\n\n"
    "class C:\n    def m(self, x):\n        return x\n    # tail\n",
    "import torch\nif True:\n    x = torch.ones(1)\nelse:\n    pass\n# trailing\n\n\nx.add_(1)\n",
    "import torch\n\n\n"
    "def g(x):\n    '''doc\n    string'''\n    y = torch.exp(x)\n    y += 1\n    return y\n",
]


@pytest.mark.parametrize("source", [p.read_text(encoding="utf-8") for p in FIXTURES] + _ODD_LAYOUTS)
def test_statement_positions_match_the_whole_modules(source):
    """Positioned one top-level statement at a time (engine.StatementPositions, from the selection's
    ``starts``), every node of the reduced text's module has the range LibCST gives it in the whole module."""
    from inplace_lint.syntax.names import code_positions
    from inplace_lint.engine.core import StatementPositions, parse

    selection = select(source)
    if selection.source is None:
        return
    module = parse(selection.source)
    assert StatementPositions.usable(module, selection.starts, selection.source)
    whole = code_positions(module)
    lazy = StatementPositions(module, selection.starts)
    for node, rng in whole.items():
        if node is not module:
            assert lazy[node] == rng, (type(node).__name__, rng, lazy[node])
