"""Autofixes (inplace_lint.fixkit.fixes): per-form edits, applicability, and golden files for the fixture corpus.

Golden files: ``tests/golden_fixes/<CODE>/<fixture>.py`` is the expected text after applying every fix
(safe and unsafe) to ``tests/fixtures/<CODE>/<fixture>.py`` with :func:`fixture_support.fix_source`;
a fixture without a fix has a golden identical to it. Regenerate them, then read the diff, with::

    python tests/test_fixes.py --update-golden

No torch is imported here, except by the check that the out-of-place twins exist (skipped without torch).
"""

from __future__ import annotations

import functools
import importlib.util
import sys
import textwrap
from pathlib import Path
from typing import Optional

import pytest

import fixture_support as fs
import inplace_lint
from inplace_lint.fixkit import fixes
from inplace_lint.model import debug
from inplace_lint.rules.agi001_saved_tensor_modified.report import VERSION_ERROR
from inplace_lint.fixkit.apply import apply_fixes
from inplace_lint.rules.report import attach_fix
from inplace_lint.model.findings import Evidence, Finding, InplaceSite, LintOptions, Position

GOLDEN_DIR = Path(__file__).resolve().parent / "golden_fixes"
FIXTURES = fs.discover()
HAZARDS = [f for f in FIXTURES if f.category in fs.HAZARD_CATEGORIES]
SAFE = [f for f in FIXTURES if f.category == fs.SAFE_CATEGORY]

# The share of hazardous fixtures whose findings are all removed by safe fixes alone (issue: >= 0.90), of
# those that are no parameter update (see test_safe_fix_ratio). Unsafe by design: writes through aliases
# that are read again, module attributes used more than once, math ops on leaves (log_var.exp_()).
# 0.89: a write in another class than the save (an in-place first layer of a callee block's Sequential)
# gets only an unsafe fix -- the rewrite edits a class whose other callers may read the in-place result
SAFE_FIX_RATIO_FLOOR = 0.89
AGI001_SAFE_FIX_RATIO_FLOOR = 0.89


INPLACE = "inplace=True"
REMOVE_TRUE = "Remove the 'inplace' argument 'True'"


def _ids(fixture):
    return fixture.id


def golden_path(fixture) -> Path:
    return GOLDEN_DIR / fixture.category / fixture.path.name


def fixed_text(fixture, unsafe: bool = True) -> str:
    return fix_result(fixture.source, str(fixture.path), unsafe)[0]


@functools.lru_cache(maxsize=None)
def fix_result(source: str, path: str, unsafe: bool):
    """``fix_source`` once per text (several tests look at the same fixture)."""
    return fs.fix_source(source, path, unsafe=unsafe)


# ------------------------------------------------------------------------------------------------ helpers


def _find(source: str, snippet: str, nth: int = 0) -> Position:
    index = -1
    for _ in range(nth + 1):
        index = source.index(snippet, index + 1)
    line = source.count("\n", 0, index) + 1
    column = index - (source.rfind("\n", 0, index) + 1)
    return Position(line, column)


def _range(source: str, snippet: str, nth: int = 0):
    start = _find(source, snippet, nth)
    lines = snippet.split("\n")
    if len(lines) == 1:
        return start, Position(start.line, start.column + len(snippet))
    return start, Position(start.line + len(lines) - 1, len(lines[-1]))


def finding(
    source: str,
    snippet: str,
    form: str,
    target: str = "",
    code: str = "AGI001",
    local: bool = True,
    shared: bool = False,
    kwarg: Optional[str] = None,
    kwarg_nth: int = 0,
    saving: Optional[str] = None,
    nth: int = 0,
    base: str = "",
) -> Finding:
    """A finding at ``snippet`` (its exact text in ``source``), as the analysis would report it; ``base``: the
    tensor a write through a view writes (``h`` for ``h[2:].zero_()``)."""
    start, end = _range(source, snippet, nth)
    kwarg_start = kwarg_end = None
    if kwarg is not None:
        kwarg_start, kwarg_end = _range(source, kwarg, kwarg_nth)
    site = InplaceSite(form, start, end, target, kwarg_start, kwarg_end, local, shared, base)
    saving_line = saving_column = None
    if saving is not None:
        pos = _find(source, saving)
        saving_line, saving_column = pos.line, pos.column
    evidence = Evidence("op", target, saving, saving_line, saving_column, runtime_error=VERSION_ERROR)
    message = f"'op' modifies '{target}' in place; backward will raise \"{VERSION_ERROR}\"."
    return Finding(code, "name", message, "<test>", start, end, evidence, site)


def fixed(source: str, f: Finding) -> str:
    """``source`` after ``f``'s fix (which must exist)."""
    got = attach_fix(f, source)
    assert got.fix is not None, "no fix offered"
    text, applied = apply_fixes(source, [got.fix])
    assert applied == 1
    compile(text, "<fixed>", "exec")  # still Python
    return text


def src(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


# ------------------------------------------------------------------------------------------ augassign


@pytest.mark.parametrize(
    "stmt, expected",
    [
        ("b *= b", "b = b * b"),
        ("y += 1", "y = y + 1"),
        ("b *= c + 1", "b = b * (c + 1)"),
        ("b += c * d", "b = b + c * d"),
        ("b -= c - d", "b = b - (c - d)"),
        ("b *= c * d", "b = b * (c * d)"),  # same precedence: keep the grouping (rounding differs)
        ("b /= (c + d)", "b = b / (c + d)"),
        ("b *= -c", "b = b * -c"),
        ("b **= 2", "b = b ** 2"),
        ("b **= -c", "b = b ** (-c)"),
        ("b -= c if k else d", "b = b - (c if k else d)"),
        ("b @= w.t()", "b = b @ w.t()"),
        ("b |= c & d", "b = b | c & d"),
        ("b &= c | d", "b = b & (c | d)"),
    ],
)
def test_augassign(stmt, expected):
    source = f"def f(b, c, d, k, w, y):\n    {stmt}  # note\n    return b\n"
    target = stmt.split()[0]
    f = finding(source, stmt, "augassign", target)
    got = attach_fix(f, source)
    assert got.fix.applicability == "safe"
    assert got.fix.title == f"Write '{expected}'"
    assert fixed(source, f) == source.replace(stmt, expected)
    assert got.message.endswith(f"\"{VERSION_ERROR}\". Write '{expected}'.")


def test_augassign_multiline_value_keeps_comments():
    source = src(
        """
        def f(b, c):
            b *= (
                c  # the scale
                + 1
            )
            return b
        """
    )
    stmt = "b *= (\n        c  # the scale\n        + 1\n    )"
    out = fixed(source, finding(source, stmt, "augassign", "b"))
    assert "b = b * (\n        c  # the scale\n        + 1\n    )" in out


def test_augassign_on_attribute_is_unsafe():
    source = "class M:\n    def f(self, x):\n        self.h *= x\n"
    f = finding(source, "self.h *= x", "augassign", "self.h", local=False, shared=True)
    got = attach_fix(f, source)
    assert got.fix.applicability == "unsafe"
    assert fixed(source, got).endswith("self.h = self.h * x\n")


def test_shared_local_is_unsafe():
    source = "def f(x):\n    v = x.view(-1)\n    v *= 2\n"
    got = attach_fix(finding(source, "v *= 2", "augassign", "v", shared=True), source)
    assert got.fix.applicability == "unsafe"


# --------------------------------------------------------------------------------------------- method


@pytest.mark.parametrize(
    "call, expected",
    [
        ("x.add_(y)", "x = x.add(y)"),
        ("x.clamp_(min=0)", "x = x.clamp(min=0)"),
        ("x.masked_fill_(m, 0.0)", "x = x.masked_fill(m, 0.0)"),
        ("x.index_put_((i,), y)", "x = x.index_put((i,), y)"),
        ("x.zero_()", "x = x.clone().zero_()"),  # no out-of-place twin
        ("x.copy_(y)", "x = x.clone().copy_(y)"),
        ("x.eq_(y)", "x = x.clone().eq_(y)"),  # x.eq(y) would be bool, eq_ keeps x's dtype
    ],
)
def test_method_statement(call, expected):
    source = f"def f(x, y, m, i):\n    {call}  # expect: AGI001\n    return x\n"
    got = attach_fix(finding(source, call, "method", "x"), source)
    assert got.fix.applicability == "safe" and got.fix.title == f"Write '{expected}'"
    assert fixed(source, got) == source.replace(call, expected)


def test_method_on_self_attribute_is_unsafe():
    source = "class M:\n    def f(self):\n        self.h.mul_(2)\n"
    f = finding(source, "self.h.mul_(2)", "method", "self.h", local=False, shared=True)
    got = attach_fix(f, source)
    assert got.fix.applicability == "unsafe"
    assert fixed(source, got).endswith("        self.h = self.h.mul(2)\n")


def test_method_not_a_data_write_gets_no_fix():
    source = "def f(x):\n    x.requires_grad_()\n"
    assert attach_fix(finding(source, "x.requires_grad_()", "method", "x"), source).fix is None


def test_method_assigned_to_another_name():
    dead = "def f(x):\n    z = x.relu_()\n    return z\n"
    assert fixed(dead, finding(dead, "x.relu_()", "method", "x")) == dead.replace("x.relu_()", "x.relu()")
    live = "def f(x):\n    z = x.relu_()\n    return z + x\n"
    assert "    z = x = x.relu()\n" in fixed(live, finding(live, "x.relu_()", "method", "x"))
    same = "def f(x):\n    x = x.relu_()\n    return x\n"
    assert "    x = x.relu()\n" in fixed(same, finding(same, "x.relu_()", "method", "x"))


def test_method_in_loop_is_live_for_earlier_reads():
    source = "def f(x):\n    for _ in range(3):\n        y = x * 2\n        z = x.relu_()\n    return z\n"
    assert "z = x = x.relu()" in fixed(source, finding(source, "x.relu_()", "method", "x"))


def test_method_returned():
    source = "def f(x):\n    return x.mul_(2)\n"
    assert fixed(source, finding(source, "x.mul_(2)", "method", "x")).endswith("return x.mul(2)\n")


def test_method_nested_in_expression():
    dead = "def f(x):\n    y = x.add_(1) * 2\n    return y\n"
    assert "y = x.add(1) * 2" in fixed(dead, finding(dead, "x.add_(1)", "method", "x"))
    live = "def f(x):\n    y = x.add_(1) * 2\n    return y, x\n"
    assert attach_fix(finding(live, "x.add_(1)", "method", "x"), live).fix is None
    # x + x.add_(1): both operands are the written tensor; out of place they would differ
    reread = "def f(x):\n    y = x + x.add_(1)\n    return y\n"
    assert attach_fix(finding(reread, "x.add_(1)", "method", "x"), reread).fix is None


def test_method_on_view_clones_the_base_first():
    source = "def f(x):\n    h = x * 1.5\n    y = h.sin()\n    h[2:].zero_()\n    return y\n"
    got = attach_fix(finding(source, "h[2:].zero_()", "method", "h[2:]", local=False, shared=True, base="h"),
                       source)
    assert got.fix.applicability == "unsafe"
    assert got.fix.title == "Clone 'h' before writing into it"
    assert "    y = h.sin()\n    h = h.clone()\n    h[2:].zero_()\n" in fixed(source, got)


def test_method_on_a_list_element_is_not_cloned():
    # feats[1].clamp_() on a list the analysis knows (no view base): cloning the list would be no fix
    source = "def f(feats):\n    feats[1].clamp_(max=1.0)\n"
    assert attach_fix(finding(source, "feats[1].clamp_(max=1.0)", "method", "feats[1]"), source).fix is None


def test_method_chain_on_a_module_attribute_is_not_cloned():
    source = "def f(emb):\n    emb.weight[0].zero_()\n"
    f = finding(source, "emb.weight[0].zero_()", "method", "emb.weight[0]", local=False, shared=True)
    assert attach_fix(f, source).fix is None


def test_function_form():
    source = "import torch\ndef f(x):\n    e = torch.exp(x)\n    torch.relu_(e)\n    return e\n"
    got = attach_fix(finding(source, "torch.relu_(e)", "function", "e"), source)
    assert got.fix.title == "Write 'e = torch.relu(e)'"
    assert "    e = torch.relu(e)\n" in fixed(source, got)
    bare = "from torch import relu_\ndef f(e):\n    relu_(e)\n    return e\n"
    assert "    e = relu_(e.clone())\n" in fixed(bare, finding(bare, "relu_(e)", "function", "e"))


# --------------------------------------------------------------------------------------- inplace=True


def test_inplace_kwarg_assigned_to_same_name():
    call = "F.dropout(w, p=0.5, training=True, inplace=True)"
    source = f"import torch.nn.functional as F\ndef f(w):\n    w = {call}  # c\n    return w\n"
    got = attach_fix(finding(source, call, "inplace_kwarg", "w", kwarg="inplace=True"), source)
    assert got.fix.title == "Remove 'inplace=True'" and got.fix.applicability == "safe"
    assert "    w = F.dropout(w, p=0.5, training=True)  # c\n" in fixed(source, got)


def test_inplace_kwarg_statement_rebinds():
    source = "def f(h):\n    F.relu(h, inplace=True)\n    return h\n"
    f = finding(source, "F.relu(h, inplace=True)", "inplace_kwarg", "h", kwarg=INPLACE)
    got = attach_fix(f, source)
    assert got.fix.title == "Write 'h = F.relu(h)'"
    assert fixed(source, got) == "def f(h):\n    h = F.relu(h)\n    return h\n"


def test_inplace_kwarg_input_read_later_is_rebound_too():
    source = "def f(y):\n    z = F.relu(y, inplace=True)\n    return z + y\n"
    f = finding(source, "F.relu(y, inplace=True)", "inplace_kwarg", "y", kwarg=INPLACE)
    got = attach_fix(f, source)
    assert "    z = y = F.relu(y)\n" in fixed(source, got)


def test_inplace_kwarg_multiline_drops_the_line():
    source = "def f(y):\n    z = F.relu(  # hi\n        y,\n        inplace=True,\n    )\n    return z\n"
    call = "F.relu(  # hi\n        y,\n        inplace=True,\n    )"
    got = attach_fix(finding(source, call, "inplace_kwarg", "y", kwarg="inplace=True"), source)
    assert fixed(source, got) == "def f(y):\n    z = F.relu(  # hi\n        y,\n    )\n    return z\n"


@pytest.mark.parametrize(
    "call, expected",
    [
        ("F.relu(x, inplace=True)", "F.relu(x)"),
        ("F.relu(x,inplace=True)", "F.relu(x)"),
        ("F.relu(x, inplace=True,)", "F.relu(x,)"),
        ("F.relu(inplace=True, input=x)", "F.relu(input=x)"),
        ("F.leaky_relu(x, 0.2, inplace=True)", "F.leaky_relu(x, 0.2)"),
        ("F.dropout(x, inplace=True, p=0.1)", "F.dropout(x, p=0.1)"),
        ("F.relu(x,  # keep\n        inplace=True)", "F.relu(x,  # keep\n        )"),
    ],
)
def test_inplace_kwarg_layouts(call, expected):
    source = f"def f(x):\n    z = {call}\n    return z\n"
    got = attach_fix(finding(source, call, "inplace_kwarg", "x", kwarg="inplace=True"), source)
    assert fixed(source, got) == source.replace(call, expected)


# ------------------------------------------------------------------------------------------- modules


SEQ = src(
    """
    from torch import nn
    def build():
        return nn.Sequential(
            nn.Linear(4, 8),
            nn.Tanh(),
            nn.ReLU(inplace=True),  # expect: AGI001
            nn.Linear(8, 1),
        )
    """
)


def test_module_ctor_in_sequential_after_the_saving_layer_is_safe():
    f = finding(SEQ, "nn.ReLU(inplace=True)", "module_ctor", "out", local=False, shared=True, kwarg=INPLACE,
                saving="nn.Tanh()")
    got = attach_fix(f, SEQ)
    assert got.fix.applicability == "safe" and got.fix.title == "Remove 'inplace=True'"
    assert "        nn.ReLU(),  # expect: AGI001\n" in fixed(SEQ, got)


def test_module_ctor_without_an_earlier_saving_sibling_is_unsafe():
    f = finding(SEQ, "nn.ReLU(inplace=True)", "module_ctor", "out", local=False, shared=True, kwarg=INPLACE)
    assert attach_fix(f, SEQ).fix.applicability == "unsafe"


@pytest.mark.parametrize(
    "ctor, arg, expected, title",
    [
        ("nn.ReLU(True)", "True", "nn.ReLU()", REMOVE_TRUE),
        ("nn.Hardtanh(0.0, 0.6, True)", "True", "nn.Hardtanh(0.0, 0.6)", REMOVE_TRUE),
        ("nn.Threshold(0.1, 0.0, True)", "True", "nn.Threshold(0.1, 0.0)", REMOVE_TRUE),
        ("nn.Hardtanh(0.0, 0.6, inplace=True)", INPLACE, "nn.Hardtanh(0.0, 0.6)", "Remove 'inplace=True'"),
    ],
)
def test_module_ctor_positional(ctor, arg, expected, title):
    source = f"from torch import nn\nnet = nn.Sequential(nn.Sigmoid(), {ctor})\n"
    f = finding(source, ctor, "module_ctor", "out", local=False, kwarg=arg, saving="nn.Sigmoid()")
    got = attach_fix(f, source)
    assert got.fix.title == title
    assert fixed(source, got) == source.replace(ctor, expected)


def test_positional_true_followed_by_positional_becomes_false():
    source = "net = nn.Sequential(nn.Sigmoid(), Act(True, 3))\n"
    f = finding(source, "Act(True, 3)", "module_ctor", "out", kwarg="True", saving="nn.Sigmoid()")
    got = attach_fix(f, source)
    assert got.fix.title == "Pass 'False' for 'inplace'"
    assert fixed(source, got) == source.replace("Act(True, 3)", "Act(False, 3)")


def test_module_call_edits_the_constructor_unsafely():
    source = src(
        """
        from torch import nn
        class Gate(nn.Module):
            def __init__(self):
                super().__init__()
                self.act = nn.ReLU(
                    inplace=True,
                )
            def forward(self, x):
                h = torch.sigmoid(x)
                h = self.act(h)
                return self.act(h + 1)
        """
    )
    f = finding(source, "self.act(h)", "module_call", "h", kwarg="inplace=True")
    got = attach_fix(f, source)
    assert got.fix.applicability == "unsafe"  # self.act has another use, which the edit changes too
    once = source.replace("return self.act(h + 1)", "return h")
    assert attach_fix(finding(once, "self.act(h)", "module_call", "h", kwarg="inplace=True"),
                        once).fix.applicability == "safe"
    assert got.fix.title == "Remove 'inplace=True' from 'nn.ReLU(inplace=True)' on line 5"
    assert "        self.act = nn.ReLU(\n        )\n" in fixed(source, got)


def test_module_call_without_constructor_range_is_handed_a_copy():
    # a module switched in place after it was built (m.inplace = True): no inplace=True to remove
    source = "def f(self, h):\n    return self.act(h)\n"
    got = attach_fix(finding(source, "self.act(h)", "module_call", "h"), source)
    assert got.fix.title == "Write 'self.act(h.clone())'"
    assert fixed(source, got) == source.replace("self.act(h)", "self.act(h.clone())")


def test_module_call_statement_without_constructor_range_gets_no_fix():
    source = "def f(self, h):\n    self.act(h)\n    return h\n"
    assert attach_fix(finding(source, "self.act(h)", "module_call", "h"), source).fix is None


# ------------------------------------------------------------------------------------------ subscript


def test_subscript_clones_first():
    source = "def f(x):\n    y = x.exp()\n    y[0] = 0  # expect: AGI001\n    return y\n"
    got = attach_fix(finding(source, "y[0] = 0", "subscript", "y", saving="x.exp()"), source)
    assert got.fix.applicability == "safe" and got.fix.title == "Clone 'y' before writing into it"
    assert fixed(source, got) == source.replace("    y[0] = 0", "    y = y.clone()\n    y[0] = 0")


def test_subscript_site_describing_the_element_is_unsafe():
    source = "def f(x):\n    y = x.exp()\n    y[0] += 1\n    return y\n"
    f = finding(source, "y[0] += 1", "subscript", "y[0]", local=False, shared=True, saving="x.exp()")
    got = attach_fix(f, source)
    assert got.fix.applicability == "unsafe" and "    y = y.clone()\n    y[0] += 1\n" in fixed(source, got)


def test_subscript_augassign_and_one_line_suite():
    source = "def f(x, c):\n    y = x.exp()\n    if c: y[:, 0] += 1\n    return y\n"
    got = attach_fix(finding(source, "y[:, 0] += 1", "subscript", "y", saving="x.exp()"), source)
    assert "    if c: y = y.clone(); y[:, 0] += 1\n" in fixed(source, got)


def test_subscript_on_attribute_or_saved_in_the_same_statement_gets_no_fix():
    attr = "def f(self):\n    self.y[0] = 0\n"
    assert attach_fix(finding(attr, "self.y[0] = 0", "subscript", "self.y", local=False), attr).fix is None
    same = "def f(hs, t):\n    hs[t + 1] = lin(hs[t])\n"
    f = finding(same, "hs[t + 1] = lin(hs[t])", "subscript", "hs", saving="lin(hs[t])")
    assert attach_fix(f, same).fix is None  # a clone before the statement is still the tensor lin saves


def test_consecutive_writes_share_one_clone():
    source = "import torch\ndef f(x):\n    y = x.exp()\n    y[0] = 0\n    y[1] = 0\n    return y\n"
    findings = [finding(source, "y[0] = 0", "subscript", "y", saving="x.exp()"),
                finding(source, "y[1] = 0", "subscript", "y", saving="x.exp()")]
    got = [attach_fix(f, source).fix for f in findings]
    assert got[0].edits == got[1].edits  # one insertion point: apply_fixes applies it once
    text, applied = apply_fixes(source, got)
    assert applied == 1 and text.count("y = y.clone()") == 1
    assert "    y = x.exp()\n    y = y.clone()\n    y[0] = 0\n    y[1] = 0\n" in text


def test_crlf_and_non_ascii_columns():
    source = 'import torch\r\ndef f(x):\r\n    y = x.exp()\r\n'
    source += '    s = "\u00e9\u00e9"; y[0] = 1\r\n    return y\r\n'
    got = attach_fix(finding(source, "y[0] = 1", "subscript", "y", saving="x.exp()"), source)
    assert fixed(source, got) == source.replace('"; y[0]', '"; y = y.clone(); y[0]')
    leaf = "import torch\r\ndef f(w):\r\n    w += 1\r\n"
    got = attach_fix(finding(leaf, "w += 1", "augassign", "w", code="AGI002"), leaf)
    assert fixed(leaf, got) == "import torch\r\ndef f(w):\r\n    with torch.no_grad():\r\n        w += 1\r\n"


def test_clone_is_never_inserted_twice():
    source = "def f(x):\n    y = x.exp()\n    y = y.clone()\n    y[0] = 0\n    return y\n"
    assert attach_fix(finding(source, "y[0] = 0", "subscript", "y"), source).fix is None


# ------------------------------------------------------------------------------------------ out=


def test_out_kwarg_statement():
    source = "import torch\ndef f(x, w):\n    y = x * w\n    torch.mul(x, 2.0, out=x)\n    return y\n"
    got = attach_fix(finding(source, "torch.mul(x, 2.0, out=x)", "out_kwarg", "x", kwarg="out=x"), source)
    assert got.fix.title == "Write 'x = torch.mul(x, 2.0)'"
    assert "    x = torch.mul(x, 2.0)\n" in fixed(source, got)


def test_out_kwarg_assigned():
    source = "def f(a, b, x):\n    y = torch.add(a, b, out=x)\n    return y, x\n"
    got = attach_fix(finding(source, "torch.add(a, b, out=x)", "out_kwarg", "x", kwarg="out=x"), source)
    assert "    y = x = torch.add(a, b)\n" in fixed(source, got)


def test_optimizer_step_has_no_fix():
    source = "def f(opt):\n    opt.step()\n"
    assert attach_fix(finding(source, "opt.step()", "optimizer_step", "the parameters"), source).fix is None


# ------------------------------------------------------------------------------------------ AGI002


def test_leaf_update_is_wrapped_in_no_grad():
    source = src(
        """
        import torch as th
        def step(w, lr):
            for _ in range(2):
                w -= lr * (
                    w.grad  # the gradient
                )
            return w
        """
    )
    stmt = "w -= lr * (\n            w.grad  # the gradient\n        )"
    got = attach_fix(finding(source, stmt, "augassign", "w", code="AGI002"), source)
    assert got.fix.applicability == "safe" and got.fix.title == "Wrap in 'with th.no_grad():'"
    wrapped = "        with th.no_grad():\n            w -= lr * (\n                w.grad  # the gradient\n"
    assert wrapped in fixed(source, got)


def test_leaf_wrap_needs_torch_and_its_own_line():
    no_torch = "def f(w):\n    w += 1\n"
    assert attach_fix(finding(no_torch, "w += 1", "augassign", "w", code="AGI002"), no_torch).fix is None
    shared_line = "import torch\ndef f(w):\n    a = 1; w += 1\n"
    f = finding(shared_line, "w += 1", "augassign", "w", code="AGI002")
    assert attach_fix(f, shared_line).fix is None
    from_import = "from torch import no_grad\ndef f(w):\n    w.add_(1)\n"
    got = attach_fix(finding(from_import, "w.add_(1)", "method", "w", code="AGI002"), from_import)
    assert "    with no_grad():\n        w.add_(1)\n" in fixed(from_import, got)


def test_leaf_activation_drops_inplace_instead_of_no_grad():
    source = "import torch\ndef f(x):\n    h = F.relu(x, inplace=True)\n    return h\n"
    f = finding(source, "F.relu(x, inplace=True)", "inplace_kwarg", "x", code="AGI002", kwarg=INPLACE)
    got = attach_fix(f, source)
    assert got.fix.applicability == "safe" and "h = F.relu(x)" in fixed(source, got)
    read_again = source.replace("return h", "return h + x")  # x keeps its values: later readers differ
    f = finding(read_again, "F.relu(x, inplace=True)", "inplace_kwarg", "x", code="AGI002", kwarg=INPLACE)
    assert attach_fix(f, read_again).fix.applicability == "unsafe"


def test_leaf_math_op_is_unsafe():
    source = "import torch\ndef f(log_var):\n    log_var.exp_()\n    return log_var\n"
    got = attach_fix(finding(source, "log_var.exp_()", "method", "log_var", code="AGI002"), source)
    assert got.fix.applicability == "unsafe"


# ---------------------------------------------------------------------------------------- attach / loop


def test_attach_leaves_unfixable_findings_alone():
    source = "def f(opt):\n    opt.step()\n"
    f = finding(source, "opt.step()", "optimizer_step")
    assert attach_fix(f, source) is f
    no_site = Finding("AGI001", "n", "m", "p", Position(1, 0), Position(1, 1), Evidence("op", "x"))
    assert attach_fix(no_site, source) is no_site


def test_attach_swallows_internal_errors_unless_debugging(monkeypatch):
    source = "x = 1\n"
    bogus = finding(source, "x = 1", "augassign", "x")  # the range is an Assign, not an AugAssign
    assert attach_fix(bogus, source).fix is None

    def boom(*args):
        raise RuntimeError("bug")

    monkeypatch.setattr(fixes, "plan_fix", boom)
    monkeypatch.setattr(debug, "DEBUG", False)
    assert attach_fix(bogus, source) is bogus
    monkeypatch.setattr(debug, "DEBUG", True)
    with pytest.raises(RuntimeError):
        attach_fix(bogus, source)


def test_the_fixes_reuse_the_analysis_parse(monkeypatch):
    source = (fs.FIXTURES_DIR / "AGI001" / "lstm_gate_slices_inplace.py").read_text(encoding="utf-8")
    source += "\n# a text no other test parses\n"
    made = []
    real = fixes._Source.__init__

    def counting(self, text, module=None, positions=None):
        made.append(module is None)  # parsed here
        real(self, text, module, positions)

    monkeypatch.setattr(fixes._Source, "__init__", counting)
    findings = inplace_lint.lint_source(source)
    assert len(findings) >= 2 and all(f.fix is not None for f in findings)
    assert made == [False]  # one parse for every finding's fix: the analysis's, handed over


SEED = (fs.FIXTURES_DIR / "AGI001" / "seed_pow_loop_inplace.py")


def test_seed_end_to_end():
    source = SEED.read_text(encoding="utf-8")
    (f,) = inplace_lint.lint_source(source)
    assert f.fix.title == "Write 'b = b * b'" and f.fix.applicability == "safe"
    assert f.message.endswith(". Write 'b = b * b'.")
    new, count, remaining = fs.fix_source(source, "seed.py")
    assert count == 1 and remaining == []
    assert "        b = b * b  # expect: AGI001\n" in new


def test_fix_source_respects_noqa_and_unsafe():
    # f's parameters have no caller: the opt-in level takes them for tensors that require grad
    ASSUMED = LintOptions(assume_params_are_tensors=True)
    source = "import torch\ndef f(a):\n    b = a.exp()\n    b += 1  # noqa: AGI001\n    return b\n"
    assert fs.fix_source(source) == (source, 0, [])
    # a write through a view of an argument: the caller sees it, so cloning first is unsafe
    view = "import torch\ndef f(x):\n    y = x.cos()\n    x.t().mul_(2.0)\n    return y\n"
    new, count, remaining = fs.fix_source(view, options=ASSUMED)
    assert (new, count) == (view, 0) and remaining and remaining[0].fix.applicability == "unsafe"
    new, count, remaining = fs.fix_source(view, unsafe=True, options=ASSUMED)
    assert count == 1 and remaining == [] and "    x = x.clone()\n    x.t().mul_(2.0)\n" in new
    # the same write through a view of a local nobody else sees: safe
    local = "import torch\ndef f(x):\n    h = x + 0.0\n    y = h.cos()\n    h.t().mul_(2.0)\n    return y\n"
    new, count, remaining = fs.fix_source(local, options=ASSUMED)
    assert count == 1 and "    h = h.clone()\n    h.t().mul_(2.0)\n" in new


def test_fix_source_is_idempotent_on_the_corpus():
    for fixture in HAZARDS:
        once = fixed_text(fixture)
        assert fs.fix_source(once, str(fixture.path), unsafe=True)[:2] == (once, 0), fixture.id


def test_twins_exist_in_torch():
    if importlib.util.find_spec("torch") is None:
        pytest.skip("torch is not installed")
    import torch

    from inplace_lint.knowledge import load

    for name in sorted(load().inplace_methods):
        twin = fixes.method_twin(name)
        if twin is not None:
            assert hasattr(torch.Tensor, twin), f"{name} -> {twin}: no such Tensor method"
    from inplace_lint.knowledge import EXTRA_METHOD_TWINS

    for name in EXTRA_METHOD_TWINS:
        assert hasattr(torch.Tensor, name + "_") and hasattr(torch.Tensor, name), name
    for namespace, module in (("torch", torch), ("torch.nn.functional", torch.nn.functional)):
        for name in dir(module):
            twin = fixes.function_twin(name) if name.endswith("_") else None
            if twin is not None and callable(getattr(module, name)):
                assert hasattr(module, twin), f"{namespace}.{name} -> {twin}: no such function"


# ------------------------------------------------------------------------------------------ the corpus


@pytest.mark.parametrize("fixture", HAZARDS, ids=_ids)
def test_golden(fixture):
    golden = golden_path(fixture)
    assert golden.exists(), f"{golden} missing: run `python tests/test_fixes.py --update-golden`, review it"
    assert fixed_text(fixture) == golden.read_text(encoding="utf-8"), (
        f"{fixture.id}: the fixed text differs from {golden.relative_to(GOLDEN_DIR.parent)}"
    )


@pytest.mark.parametrize("fixture", HAZARDS, ids=_ids)
def test_fixed_fixture_lints_clean(fixture):
    """Where every finding of a fixture has a fix, the fixed text has no finding of that code left."""
    findings = inplace_lint.lint_source(fixture.source, str(fixture.path))
    if not findings or any(f.fix is None for f in findings):
        pytest.skip("not every finding has a fix")
    new, count, remaining = fix_result(fixture.source, str(fixture.path), True)
    assert count >= 1
    left = [(f.code, f.line, f.message) for f in remaining if f.code in fixture.codes]
    assert not left, left


@pytest.mark.parametrize("fixture", SAFE, ids=_ids)
def test_safe_fixture_unchanged(fixture):
    new = fixed_text(fixture)
    if new != fixture.source:
        findings = inplace_lint.lint_source(fixture.source, str(fixture.path))
        pytest.fail(
            f"{fixture.id} was rewritten; the analysis reports {[(f.code, f.line) for f in findings]} "
            "on it (false positives: see test_fixtures_lint)"
        )


def safe_fix_ratio(fixtures) -> float:
    """Share of ``fixtures`` whose findings (of the fixture's codes) are all removed by safe fixes."""
    if not fixtures:
        return 1.0
    fixed_count = 0
    for fixture in fixtures:
        new, count, remaining = fix_result(fixture.source, str(fixture.path), False)
        if count and not [f for f in remaining if f.code in fixture.codes]:
            fixed_count += 1
    return fixed_count / len(fixtures)


# Writes that are updates of a module's parameters (an optimizer's step, load_state_dict, a helper's
# ``layer.weight.mul_(...)``): the update is the point of the write, so no rewrite can keep both it and the
# value a forward saved. They get no fix, like AGI003 and AGI004 writes.
PARAMETER_UPDATE_FORMS = ("optimizer_step", "parameter_update")


def _updates_parameters(fixture) -> bool:
    """Is every finding the fixture expects a parameter update?"""
    findings = [finding for finding in inplace_lint.lint_source(fixture.source, str(fixture.path))
                if finding.code in fixture.codes]
    return bool(findings) and all(finding.site is not None and finding.site.form in PARAMETER_UPDATE_FORMS
                                  for finding in findings)


def test_parameter_updates_get_no_fix():
    updates = [f for f in HAZARDS if f.category == "AGI001" and _updates_parameters(f)]
    assert len(updates) >= 5, [f.id for f in updates]
    for fixture in updates:
        assert all(f.fix is None for f in inplace_lint.lint_source(fixture.source, str(fixture.path))
                   if f.site is not None and f.site.form in PARAMETER_UPDATE_FORMS), fixture.id


def test_safe_fix_ratio():
    # AGI003's out-of-place rewrite and AGI004's no_grad wrap are unsafe by design (see their Fix safety),
    # and parameter updates get no fix (above): the floor is over the writes a rewrite can fix
    fixable = [f for f in HAZARDS if f.category in ("AGI001", "AGI002") and not _updates_parameters(f)]
    overall = safe_fix_ratio(fixable)
    agi001 = safe_fix_ratio([f for f in fixable if f.category == "AGI001"])
    every = safe_fix_ratio([f for f in HAZARDS if f.category in ("AGI001", "AGI002")])
    print(f"safe-fix ratio: {overall:.3f} of {len(fixable)} AGI001/AGI002 fixtures that are no parameter "
          f"update; AGI001 {agi001:.3f}; of every AGI001/AGI002 fixture {every:.3f}")
    assert overall >= SAFE_FIX_RATIO_FLOOR, overall
    assert agi001 >= AGI001_SAFE_FIX_RATIO_FLOOR, agi001
    assert safe_fix_ratio([f for f in HAZARDS if f.category == "AGI003"]) == 0.0
    assert safe_fix_ratio([f for f in HAZARDS if f.category == "AGI004"]) == 0.0


# ------------------------------------------------------------------------------------------- golden update


def update_golden() -> int:
    written = 0
    for fixture in HAZARDS:
        path = golden_path(fixture)
        text = fixed_text(fixture)
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            written += 1
            print(f"wrote {path.relative_to(GOLDEN_DIR.parent.parent)}")
    known = {golden_path(f) for f in HAZARDS}
    for stale in sorted(GOLDEN_DIR.glob("*/*.py")):
        if stale not in known:
            stale.unlink()
            print(f"removed {stale.relative_to(GOLDEN_DIR.parent.parent)} (no such fixture)")
    print(f"{written} golden file(s) written; review them with git diff")
    return 0


if __name__ == "__main__":
    if sys.argv[1:] == ["--update-golden"]:
        sys.exit(update_golden())
    sys.exit(f"usage: {sys.argv[0]} --update-golden")
