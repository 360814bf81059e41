"""The analysis's first look runs on trees built from ``ast`` (inplace_lint/syntax/cst_from_ast.py): they must
have LibCST's shapes, field by field, wherever the analysis reads.

Compared here: every fixture (whole and reduced by the selection), a catalogue of tricky syntax, and with
``--run-slow`` every file of the downloaded benchmark corpora. The findings themselves are compared with
and without the first look in tests/test_perf_equivalence.py.
"""

from __future__ import annotations

import ast
import dataclasses
import sys
import textwrap
from pathlib import Path

import libcst as cst
import pytest

from inplace_lint.engine import core as engine
from inplace_lint.analysis import _directly_called
from inplace_lint.syntax.names import walk
from inplace_lint.syntax.cst_from_ast import BLANKED, Unsupported, convert
from inplace_lint.engine.core import lint_source, might_have_hazard
from inplace_lint.model.findings import LintOptions
from inplace_lint.syntax.select import select

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = sorted((ROOT / "tests" / "fixtures").rglob("*.py"))
CORPUS = ROOT / "benchmarks" / ".cache"

# Formatting only: nothing of the analysis lives there, and the built trees leave it at LibCST's defaults.
FORMATTING = frozenset({
    "lpar", "rpar", "lbracket", "rbracket", "lbrace", "rbrace", "comma", "semicolon", "header", "footer",
    "leading_lines", "trailing_whitespace", "lines_after_decorators", "newline", "colon", "equal", "dot",
    "first_line", "empty_lines", "indent", "prefix", "quote", "encoding", "default_indent", "default_newline",
    "has_trailing_newline", "posonly_ind", "star_tok", "first_colon", "second_colon",
})


def difference(built, parsed, path: str = "module"):
    """Where ``built`` (from ast) and ``parsed`` (LibCST's) differ in a field the analysis may read, or None.
    Of a string made of several pieces, or an f-string, only the node type counts: the analysis evaluates
    neither (cst_from_ast keeps an f-string's expressions, for the syntactic walks)."""
    if type(built) is not type(parsed):
        return f"{path}: {type(built).__name__} built, {type(parsed).__name__} parsed"
    if isinstance(built, (list, tuple)):
        if len(built) != len(parsed):
            return f"{path}: {len(built)} items built, {len(parsed)} parsed"
        for index, (a, b) in enumerate(zip(built, parsed)):
            found = difference(a, b, f"{path}[{index}]")
            if found:
                return found
        return None
    if isinstance(built, cst.CSTNode):
        if type(built) in (cst.FormattedString, cst.ConcatenatedString):
            return None
        for field in dataclasses.fields(built):
            name = field.name
            if name in FORMATTING or name.startswith("whitespace"):
                continue
            if type(built) is cst.Param and name == "star":
                continue  # "" or LibCST's default sentinel: the same to the analysis
            found = difference(getattr(built, name), getattr(parsed, name), f"{path}.{name}")
            if found:
                return found
        return None
    if path.endswith(".value") and built == BLANKED:
        return None  # the string a blanked run became: its text is the blanked lines' breaks
    return None if built == parsed else f"{path}: {built!r} built, {parsed!r} parsed"


def assert_same_shape(text: str) -> None:
    built, converter = convert(text, ast.parse(text))
    parsed = engine.parse(text)
    found = difference(built, parsed)
    assert found is None, found
    assert_same_direct_calls(converter, parsed)


def assert_same_direct_calls(converter, parsed: cst.Module) -> None:
    """The functions only ever called directly, as counted while building, are those the analysis's walk
    of LibCST's tree finds (asked about every name of the tree)."""
    names = {node.value for node in walk(parsed) if type(node) is cst.Name}
    assert converter.directly_called(names) == _directly_called(parsed, names)


def _texts(path: Path):
    """The file's text, and the selection's reduced text of it when that differs, with its Selection."""
    source = path.read_text(encoding="utf-8")
    yield source, None
    if might_have_hazard(source):
        selection = select(source)
        if selection.source is not None and selection.source != source:
            yield selection.source, selection


def assert_reduced_shape(source: str, selection) -> None:
    """The reduced text's tree, built from the whole text's ``ast`` tree and the selection's record of
    what it blanked (no second ``ast.parse``), is the tree LibCST parses from the reduced text."""
    built, converter = convert(source, selection.tree, selection.reductions)
    parsed = engine.parse(selection.source)
    found = difference(built, parsed)
    assert found is None, found
    assert_same_direct_calls(converter, parsed)


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: str(p.relative_to(ROOT / "tests" / "fixtures")))
def test_fixture_trees_have_libcst_shapes(path):
    source = path.read_text(encoding="utf-8")
    for text, selection in _texts(path):
        assert_same_shape(text)
        if selection is not None:
            assert_reduced_shape(source, selection)


TRICKY = {
    "semicolons and one-line suites": """
        a = 1; b = 2
        if a: b += 1; a -= 1
        else: pass
        while b: break
        for i in x: continue
        class C: pass
        def f(x): return x
        with m: y.mul_(2)
        try: x
        except E: pass
        finally: pass
    """,
    "elif is not else-if": """
        if a:
            pass
        elif b:
            pass
        else:
            if c:
                pass
            else:
                pass
    """,
    "subscripts": """
        x[a, b]; x[(a, b)]; x[(a), b]; x[()]; x[a,]; x[:, None]; x[1:2:3, ...]; x[::2]; x[(a, b), c]
        x[[0, 1]]; x[-1]; x[i][j]
    """,
    "calls and arguments": """
        f(a, *b, k=1, **c)
        f(a, k=1, *b)
        f(x for x in y)
        f(*a, *b, **c, **d)
        g()(1)(k=2)
    """,
    "strings and numbers": '''
        a = "x"; b = 'y'; c = """doc"""; d = b"z"; e = rb"\\\\"; f = "a" "b"; g = f"{a}" "b"
        h = """a""" f"""b{c}"""; t = f"{x:{width}.{prec}}" f"{y}"
        i = 0x10; j = 1_000; k = 1.5e3; l = 2j; m = -1; n = ...; o = None
        p = True, False; q = "it's"; r = 'say "hi"'; s = f"{x!r:>{w}}"
    ''',
    "operators": """
        a = b + c - d * e / f // g % h ** i @ j << k >> l | m & n ^ o
        a += 1; a -= 1; a *= 1; a /= 1; a //= 1; a %= 1; a **= 1
        a @= b; a <<= 1; a >>= 1; a |= 1; a &= 1; a ^= 1
        b = not a and b or c and d and e
        c = -a + +b + ~c
        d = a < b <= c > d >= e == f != g is h is not i in j not in k
        e = a if b else c
        f = (y := 3)
    """,
    "displays and comprehensions": """
        a = [1, *b]; c = (1,); d = {1, *e}; f = {"k": 1, **g}; h = ()
        i = [x for x in y if x if not x for z in x]
        j = {k: v for k, v in d.items()}
        k = {x async for x in y}
        l = (x for x in y)
        first, *rest = seq
        [a, b] = c
    """,
    "definitions": """
        @decorator
        @other.decorator(1)
        def f(a, b: int = 1, /, c=2, *args, d, e: "T" = 3, **kwargs) -> Tensor:
            '''doc'''
            global G
            def inner():
                nonlocal a
                yield a
                yield from b
            lam = lambda x, *y, z=1, **w: x
            star = lambda *, k: k
            return await a

        async def g(x, *, y):
            async with a as (b, c), d:
                pass
            async for i in x:
                pass

        class C(Base, *bases, metaclass=M, **kw):
            x: int = 1
            y: int
    """,
    "statements": """
        import a.b.c as d, e
        from . import x
        from ..y.z import (p as q, r)
        from m import *
        del a, b[0], c.d
        del x
        raise E from err
        raise
        assert a, "message"
        try:
            pass
        except (A, B) as e:
            pass
        except C:
            pass
        else:
            pass
        with a, b as c:
            pass
        for x in a, b:
            pass
        else:
            pass
        while x:
            pass
        else:
            pass
    """,
    "exception groups (3.11+)": """
        try:
            pass
        except* E as g:
            pass
        except* (F, G):
            pass
    """,
    "non-ASCII text before a column": """
        s = "ünïcode"; t = "日本"[0]; u = f"{s}é"
        v = "é"; x[(s, t)]; w = "ü" + x[1:2, (a, b)]
    """,
}


@pytest.mark.parametrize("name", sorted(TRICKY))
def test_tricky_syntax_has_libcst_shapes(name):
    if "(3.11+)" in name and sys.version_info < (3, 11):
        pytest.skip("syntax this Python does not parse")
    assert_same_shape(textwrap.dedent(TRICKY[name]).lstrip())


def test_odd_line_breaks_keep_columns():
    # a form feed is no line break to Python (str.splitlines would break there)
    assert_same_shape("a = 1\n\x0cb = x[1]; c = 'd'\n")
    assert_same_shape("x = 1\r\ny = x[0]; z = 'q'\r\n")


@pytest.mark.parametrize("text", ["match x:\n    case 1:\n        pass\n", 'x[("a", b)]\n'])
def test_what_is_not_built_is_left_to_libcst(text):
    if text.startswith("match") and sys.version_info < (3, 10):
        pytest.skip("no match statement before Python 3.10")
    with pytest.raises(Unsupported):
        convert(text, ast.parse(text))


MATCH_WITH_HAZARD = """
import torch

def step(a, mode):
    match mode:
        case "x":
            pass
    b = torch.sigmoid(a)
    b += 1
    return b
"""


# plain functions with no caller: their hazards rest on the opt-in level's assumption
ASSUMED = LintOptions(assume_params_are_tensors=True)


@pytest.mark.skipif(sys.version_info < (3, 10), reason="no match statement before Python 3.10")
def test_unsupported_syntax_still_gets_its_finding():
    assert [f.code for f in lint_source(MATCH_WITH_HAZARD, "m.py", ASSUMED)] == ["AGI001"]


CLEAN = """
import torch

def step(a):
    b = torch.sigmoid(a)
    b = b + 1
    c = a * 2
    c += 1
    return b, c
"""


def test_a_file_without_hazard_is_never_parsed_by_libcst(monkeypatch):
    parses = []
    real = engine.parse
    monkeypatch.setattr(engine, "parse", lambda text: parses.append(text) or real(text))
    assert lint_source(CLEAN, "m.py", ASSUMED) == []
    assert parses == []
    # a hazard: LibCST's tree gives the finding, its message and its fix
    findings = lint_source(CLEAN.replace("b = b + 1", "b += 1"), "m.py", ASSUMED)
    assert [f.code for f in findings] == ["AGI001"] and len(parses) == 1
    assert findings[0].fix is not None


def _corpus_files():
    return sorted(CORPUS.glob("*/*/**/*.py")) if CORPUS.exists() else []


@pytest.mark.slow
def test_whole_corpus_trees_have_libcst_shapes():
    files = _corpus_files()
    if not files:
        pytest.skip("benchmark corpus not downloaded (python -m benchmarks.run fetches it)")
    for path in files:
        try:
            texts = list(_texts(path))
        except (SyntaxError, ValueError):  # UnicodeDecodeError is a ValueError
            continue
        for text, selection in texts:
            try:
                tree = ast.parse(text)
                parsed = engine.parse(text)
            except (SyntaxError, ValueError, engine.LintError):
                continue
            try:
                built, converter = convert(text, tree)
                if selection is not None:
                    reduced, converter = convert(texts[0][0], selection.tree, selection.reductions)
                    found = difference(reduced, parsed)
                    assert found is None, f"{path}, reduced: {found}"
            except Unsupported:
                continue
            found = difference(built, parsed)
            assert found is None, f"{path}: {found}"
            assert_same_direct_calls(converter, parsed)
