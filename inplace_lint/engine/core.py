"""The one core every adapter calls: source text in, findings out.

flake8, the CLI, the LSP server and pre-commit all go through :func:`lint_source`. It never imports,
executes or evaluates the code it lints, and it never raises anything but :class:`LintError`
(bad input, with one clear message).
"""

from __future__ import annotations

import ast
import contextlib
import contextvars
import gc
import sys
from typing import Dict, List, Optional, Tuple

import libcst as cst
from libcst.metadata import CodePosition, CodeRange

from inplace_lint.engine import program
from inplace_lint.engine.limits import DEFAULT_MAX_FILE_MB, MAX_FILE_ENV, max_file_characters  # noqa: F401
from inplace_lint.engine.prefilter import might_have_hazard
from inplace_lint.model import debug
from inplace_lint.model.findings import AnalysisTooLarge, Finding, LintError, LintOptions, LintSession
from inplace_lint.rules import report
from inplace_lint.syntax.cst_from_ast import Unsupported, convert
from inplace_lint.syntax.lines import line_starts
from inplace_lint.syntax.names import code_positions
from inplace_lint.syntax.parsing import parse_quietly
from inplace_lint.syntax.select import runs_backward
from inplace_lint.syntax.select import select


def refuse_too_large(source: str) -> None:
    limit = max_file_characters()
    if len(source) > limit:
        raise LintError(f"cannot lint: file too large to analyse: {len(source) / 1e6:.1f} MB; limit "
                        f"{limit / 1e6:g} MB, set by {MAX_FILE_ENV}")


# Set while linting a text that refuse_long_chains passed on its ast tree: the texts parsed then (the
# reduced text, its pieces) only blank parts of it, and need no second ast parse to be checked.
_CHAINS_CHECKED: "contextvars.ContextVar[bool]" = contextvars.ContextVar("chains_checked", default=False)


def parse(source: str) -> cst.Module:
    """Parse with LibCST, turning every failure into a LintError with a position."""
    if "\x00" in source:
        raise LintError("cannot lint: the file contains a NUL byte (binary file?)")
    if not _CHAINS_CHECKED.get():
        refuse_long_chains(source)
    try:
        with _unvalidated_nodes():
            return cst.parse_module(source)
    except cst.ParserSyntaxError as error:
        raise _explain(source, getattr(error, "raw_line", None), getattr(error, "raw_column", None)) from None
    except RecursionError:
        raise _explain(source, None, None, "the code nests too deeply for the parser") from None
    except Exception as error:  # LibCST's native parser may raise other errors on odd input
        raise _explain(source, None, None, f"{type(error).__name__}: {error}") from None


# LibCST's parser takes time that grows with the cube of a chain of calls, attribute lookups and subscripts
# (x.add_(1).add_(1)...: 400 links 0.3 CPU-s, 1,400 links 4 CPU-s); no real code comes near this length
LONGEST_CHAIN = 500
_CHAIN_LINKS = (").", ")(", ")[", "].", "](", "][")
# ... and of binary operators nested in one another (a + a + ... + a: 1,000 terms 0.1 CPU-s, 2,000 0.6,
# 10,000 over a minute); CPython itself cannot compile 3,000 at its default recursion limit
LONGEST_OPERATOR_CHAIN = 1000
_OPERATOR_CHARACTERS = "+-*/@%|&^<>"


def refuse_long_chains(source: str, tree: Optional[ast.Module] = None) -> None:
    """One clear LintError, at once, for a chain LibCST would take seconds to parse (never a hang).

    ``tree``: the ``ast`` tree of ``source``, when the caller has it (else it is parsed, if need be)."""
    if not _could_chain(source):
        return
    if tree is None:
        limit = sys.getrecursionlimit()
        try:
            sys.setrecursionlimit(max(limit, 10_000))  # what the analysis runs under
            tree = parse_quietly(source)
        except (SyntaxError, ValueError):
            return  # LibCST's parse reports it
        except (RecursionError, MemoryError):
            # nested deeper than CPython builds a tree for: no interpreter compiles it, and LibCST would
            # take minutes (a chain of 100,000 operators) or exhaust the stack
            raise LintError("cannot lint: the code nests too deeply for Python to compile it (an expression "
                            "of thousands of nested operators, calls or brackets?)") from None
        finally:
            sys.setrecursionlimit(limit)
    length: Dict[int, int] = {}
    chains = (ast.Attribute, ast.Call, ast.Subscript)
    depth: Dict[int, int] = {}
    for part in _parts_that_may_chain(tree, source):
        # ast.walk goes breadth first: a node's operands come later, so in reverse they are counted first
        for node in reversed(list(ast.walk(part))):
            if isinstance(node, ast.BinOp):
                terms = depth[id(node)] = max(depth.get(id(node.left), 1), depth.get(id(node.right), 1)) + 1
                if terms > LONGEST_OPERATOR_CHAIN:
                    raise LintError(f"cannot lint: an expression of more than {LONGEST_OPERATOR_CHAIN} terms "
                                    f"joined by operators (line {node.lineno}) is longer than LibCST, which "
                                    f"the analysis runs on, parses in reasonable time", node.lineno,
                                    node.col_offset)
            elif isinstance(node, chains):
                inner = node.func if isinstance(node, ast.Call) else node.value
                links = length[id(node)] = length.get(id(inner), 0) + 1
                if links > LONGEST_CHAIN:
                    raise LintError(f"cannot lint: a chain of more than {LONGEST_CHAIN} calls, attribute "
                                    f"lookups and subscripts (line {node.lineno}) is longer than LibCST, which "
                                    f"the analysis runs on, parses in reasonable time", node.lineno,
                                    node.col_offset)


def _could_chain(text: str) -> bool:
    """Could ``text`` hold a chain past a limit? (Counts that bound each kind of chain's length from above:
    a call or subscript chain spells one of the links at least every other link, an attribute lookup a
    dot, a binary operator one of the characters.)"""
    return (sum(text.count(link) for link in _CHAIN_LINKS) >= LONGEST_CHAIN // 2
            or text.count(".") > LONGEST_CHAIN
            or sum(text.count(c) for c in _OPERATOR_CHARACTERS) > LONGEST_OPERATOR_CHAIN)


_STATEMENT_LISTS = ("body", "orelse", "finalbody", "handlers", "cases")


def _parts_that_may_chain(tree: ast.Module, source: str):
    """The parts of ``tree`` whose text could hold a long chain: a statement whose lines spell too few
    links and operators is skipped whole, so real code is walked in a few small parts, not node by node."""
    starts = line_starts(source)

    def text_of(node) -> str:
        first = min(node.lineno, len(starts) - 1) - 1
        last = min(getattr(node, "end_lineno", None) or len(starts) - 1, len(starts) - 1)
        return source[starts[first]:starts[last]]

    pending = list(tree.body)
    while pending:
        statement = pending.pop()
        if not _could_chain(text_of(statement)):
            continue
        inner = [getattr(statement, name) for name in _STATEMENT_LISTS if getattr(statement, name, None)]
        if not inner:
            yield statement
            continue
        for name, value in ast.iter_fields(statement):
            if name in _STATEMENT_LISTS:
                for child in value:
                    if isinstance(child, ast.stmt):
                        pending.append(child)
                    else:  # an except handler, a match case: its header, then its statements
                        for header_name, header in ast.iter_fields(child):
                            if header_name == "body":
                                pending.extend(header)
                            elif isinstance(header, ast.AST):
                                yield header
            elif isinstance(value, ast.AST):
                yield value
            elif isinstance(value, list):
                yield from (item for item in value if isinstance(item, ast.AST))


_VALIDATE = cst.CSTNode.__post_init__


def _skip_validation(self) -> None:
    pass


@contextlib.contextmanager
def _unvalidated_nodes():
    """Build the parser's nodes without LibCST's per-node validation: every node a parse builds is valid
    by construction, and validating them costs about a quarter of the parse (LibCST's own comment on
    ``CSTNode.__post_init__`` suggests leaving it out of parsing). Nodes built elsewhere (the fixes'
    ``with_changes``) are validated as usual."""
    cst.CSTNode.__post_init__ = _skip_validation
    try:
        yield
    finally:
        # LibCST's own method, never whatever another thread's parse left in place
        cst.CSTNode.__post_init__ = _VALIDATE


def _explain(source: str, line: Optional[int], column: Optional[int], detail: str = "") -> LintError:
    """One clear message for text LibCST rejects. LibCST's native parser puts tokenizer errors at 1:1 and
    parser errors a line late, without the reason; CPython's own parser (``ast.parse``: parsing only,
    nothing runs) says where and why."""
    try:
        ast.parse(source)
    except SyntaxError as error:
        where = error.lineno or line or 1
        return LintError(f"cannot parse: {error.msg} (line {where})", where, max((error.offset or 1) - 1, 0))
    except (RecursionError, MemoryError, ValueError) as error:
        return LintError(f"cannot parse: {type(error).__name__}: {error}".rstrip(": "), line, column)
    reason = detail or "LibCST, which the analysis runs on, cannot parse this valid Python (nested too deeply?)"
    where = f" (line {line})" if line else ""
    return LintError(f"cannot lint: {reason}{where}", line, column)


def lint_source(
    source: str, path: str = "<string>", options: Optional[LintOptions] = None, *, tree: Optional[ast.Module] = None,
    include_foreign: bool = False,
) -> List[Finding]:
    """Findings for one file's text, sorted by position. Raises only :class:`LintError`.

    ``tree``: the ``ast`` tree of ``source``, when the caller already has one (flake8 does).
    ``include_foreign``: also, after them, the findings this file's calls cause in other files of its
    program (each with that file's ``path``; inplace_lint.engine.program), for a whole-program lint.
    """
    return lint_with_tree(source, tree, path, options, include_foreign=include_foreign)




class Memo:
    """The last lint of one document (the language server keeps one per document): findings are a
    function of the reduced text the analysis saw, so an edit to code no finding can depend on (a body the
    selection blanks) is answered without parsing or analysing anything again."""

    def __init__(self) -> None:
        self.key: Optional[tuple] = None
        self.findings: List[Finding] = []
        self.hits = 0
        # the reduced text's top-level pieces, parsed: an edit re-parses (and re-positions) only its piece
        self.pieces: Dict[str, List["_Piece"]] = {}
        self.owner: Dict[cst.CSTNode, "_Piece"] = {}  # node -> its piece, for the positioned pieces
        self.parsed_pieces = 0  # how many pieces were parsed (the rest came from the cache)


class _Piece:
    """One top-level statement's text, parsed on its own, with its positions once asked for."""

    __slots__ = ("module", "_positions", "_owner")

    def __init__(self, module: cst.Module, owner: Dict[cst.CSTNode, "_Piece"]):
        self.module = module
        self._positions = None
        self._owner = owner  # the memo's node -> piece map, which this piece joins once positioned

    @property
    def positioned(self) -> bool:
        return self._positions is not None

    @property
    def positions(self):
        if self._positions is None:
            self._positions = code_positions(self.module)
            self._owner.update(dict.fromkeys(self._positions, self))
        return self._positions

    def forget(self) -> None:
        """Leave the memo's node -> piece map (the piece is no longer part of the document)."""
        if self._positions is not None:
            owner = self._owner
            for node in self._positions:
                owner.pop(node, None)


class _LazyPositions:
    """A read-only mapping node -> CodeRange computed on demand (``get``): what analysis and fixes ask of
    LibCST's PositionProvider mapping."""

    def get(self, node, default=None):  # pragma: no cover - each subclass answers
        raise NotImplementedError

    def __getitem__(self, node):
        rng = self.get(node)
        if rng is None:
            raise KeyError(node)
        return rng

    def __contains__(self, node) -> bool:
        return self.get(node) is not None


def _moved_down(rng: CodeRange, lines: int) -> CodeRange:
    if not lines:
        return rng
    return CodeRange(CodePosition(rng.start.line + lines, rng.start.column),
                     CodePosition(rng.end.line + lines, rng.end.column))


class PiecewisePositions(_LazyPositions):
    """LibCST positions of a module assembled from separately parsed pieces: each piece's own positions
    (computed when first needed, and kept with the piece), moved down by the lines before the piece."""

    def __init__(self, pieces: List[Tuple[_Piece, int]], owner: Dict[cst.CSTNode, _Piece]):
        self._before = {id(piece): before for piece, before in pieces}  # lines before each piece
        self._owner = owner
        self._unpositioned = [piece for piece, _ in pieces if not piece.positioned]
        self._moved: Dict[cst.CSTNode, CodeRange] = {}

    def get(self, node, default=None):
        moved = self._moved.get(node)
        if moved is not None:
            return moved
        piece = self._owner.get(node)
        while piece is None and self._unpositioned:
            self._unpositioned.pop(0).positions  # noqa: B018 - positions the piece (and maps its nodes)
            piece = self._owner.get(node)
        if piece is None:
            return default
        rng = self._moved[node] = _moved_down(piece.positions[node], self._before.get(id(piece), 0))
        return rng


class StatementPositions(_LazyPositions):
    """LibCST positions of a module, computed one top-level statement at a time when first asked for: a
    file's findings and fixes sit in a few of its statements, and positioning the whole module (a
    generation of its code that records every node) cost as much as parsing it.

    ``starts``: the line where each top-level statement starts (a decorated definition at its first
    decorator, as inplace_lint.syntax.select records them): a statement positioned alone, in a module of its
    own, is moved down by ``starts[i]`` less the lines of its own leading comments and blank lines."""

    def __init__(self, module: cst.Module, starts: List[int]):
        self._module = module
        self._starts = starts
        self._moved: Dict[cst.CSTNode, CodeRange] = {}
        self._unpositioned = list(range(len(module.body)))  # statement indexes, in order
        self._index = {id(statement): index for index, statement in enumerate(module.body)}

    @staticmethod
    def usable(module: cst.Module, starts: Optional[List[int]], text: str) -> bool:
        """Do ``starts`` name the module's statements one for one? (Line breaks other than ``\n`` and form
        feeds: LibCST counts lines its own way; then the whole module is positioned as before.)"""
        return (starts is not None and len(starts) == len(module.body)
                and "\r" not in text and "\f" not in text)

    def prefer(self, statements) -> None:
        """Position these top-level statements first (those holding the findings' units); when they are
        most of the module, the whole module at once (one pass, no moving)."""
        indexes = {self._index[id(s)] for s in statements if id(s) in self._index} & set(self._unpositioned)
        if len(indexes) * 2 >= len(self._module.body):
            self._moved.update(code_positions(self._module))
            self._unpositioned = []
            return
        for index in sorted(indexes):
            self._position(index)
        self._unpositioned = [index for index in self._unpositioned if index not in indexes]

    def span(self, index: int) -> Tuple[int, int]:
        """The lines statement ``index`` may occupy, without positioning it: from its start to the line
        before the next statement's (comments and blank lines after it included)."""
        starts = self._starts
        return starts[index], (starts[index + 1] - 1 if index + 1 < len(starts) else 1 << 30)

    def _position(self, index: int) -> None:

        module = self._module
        statement = module.body[index]
        alone = cst.Module(body=(statement,), header=(), footer=(), encoding=module.encoding,
                           default_indent=module.default_indent, default_newline=module.default_newline,
                           has_trailing_newline=True)
        before = self._starts[index] - 1 - len(statement.leading_lines)
        moved = self._moved
        for node, rng in code_positions(alone).items():
            if node is not alone:
                moved[node] = _moved_down(rng, before)

    def get(self, node, default=None):
        found = self._moved.get(node)
        while found is None and self._unpositioned:
            self._position(self._unpositioned.pop(0))
            found = self._moved.get(node)
        return default if found is None else found


def lint_with_tree(
    source: str,
    tree: Optional[ast.Module],
    path: str = "<string>",
    options: Optional[LintOptions] = None,
    reduce: bool = True,
    memo: Optional[Memo] = None,
    selection: bool = True,
    include_foreign: bool = False,
) -> List[Finding]:
    """:func:`lint_source`, given the ``ast`` tree of ``source`` when the caller has one (flake8 does).

    Only the function bodies that can matter are analysed (:mod:`inplace_lint.syntax.select`), and first on a
    tree built from ``ast`` (:mod:`inplace_lint.syntax.cst_from_ast`): LibCST parses the reduced text only when
    that first look finds a hazard, and the findings come from LibCST's tree. ``reduce=False`` parses
    and analyses the whole text with LibCST (the reference the equivalence tests compare against);
    ``selection=False`` skips only the selection: the first look runs on the whole text's ``ast`` tree
    (benchmarks/selection.py measures what the selection saves).
    """
    options = options or LintOptions()
    linked = program.link(source, path, options.whole_program) if reduce and selection else None
    if linked is not None:
        # the file with the definitions it imports from its program (inplace_lint.engine.program)
        if not might_have_hazard(linked.text):
            return []
        refuse_too_large(source)
        with _fewer_collections():
            findings = _lint(linked.text, program.tree_of(linked.text), path, options, reduce, memo, selection)
        return program.split_findings(findings, linked, source, path, include_foreign)
    if not might_have_hazard(source):
        return []
    refuse_too_large(source)
    if tree is None and reduce and selection:
        tree = program.tree_of(source)
    # Collect rarely for the whole lint, and end that stretch only once its trees are gone (they go by
    # reference counting when _lint returns): the collection it ends with walks what survives, not a tree
    with _fewer_collections():
        return _lint(source, tree, path, options, reduce, memo, selection)


def _lint(source: str, tree: Optional[ast.Module], path: str, options: LintOptions, reduce: bool,
          memo: Optional[Memo], selection: bool = True) -> List[Finding]:
    text = source
    # What the first look builds the tree of ``text`` from: an ``ast`` tree, the text it was parsed from,
    # and what the selection blanked there to make ``text`` (None: nothing; no tree: parse ``text``)
    ast_tree, ast_text, reductions = tree, source, None
    starts = None
    if reduce and selection:
        try:
            selection = select(source, tree)
        except LintError:
            raise
        except Exception:  # a selection bug must cost time, never findings: lint the whole text
            if _debugging():
                raise
        else:
            if selection.source is None:
                return []
            text = selection.source
            starts = selection.starts
            ast_tree, reductions = selection.tree, selection.reductions
    key = None
    if memo is not None:
        # (whether the whole text runs a backward is read beyond the reduced text: hooks put on every
        # module of a class count as recording grad then)
        key = (text, path, options.assume_params_are_tensors, tuple(options.select), tuple(options.ignore),
               repr(sorted(options.extra.items())), runs_backward(source))
        if memo.key == key:
            memo.hits += 1
            return list(memo.findings)
    # the selection's tree is the whole text's, which the reduced text only blanks parts of
    checked = None
    if ast_tree is not None and ast_text is source:
        refuse_long_chains(source, ast_tree)
        checked = _CHAINS_CHECKED.set(True)
    try:
        session = LintSession()
        pieces = _parse_pieces(text, starts, memo) if memo is not None and starts else None
        if pieces is None and reduce and not _hazards_on_ast(text, ast_text, ast_tree, reductions, options):
            findings = []
        else:
            owner = memo.owner if memo else None
            findings = _parse_and_analyse(source, text, path, options, pieces, owner, starts, session)
        if memo is not None:
            # a fix's safety that looked beyond the reduced text (inplace_lint.rules) must not be reused
            memo.key = key if not session.whole_source_reads else None
            memo.findings = list(findings)
        return findings
    finally:
        if checked is not None:
            _CHAINS_CHECKED.reset(checked)


@contextlib.contextmanager
def _fewer_collections():
    """A syntax tree is hundreds of thousands of small acyclic objects: with the default thresholds the
    cyclic collector walks them again and again while they are built (15 % of a lint on real code, a
    third of LibCST's parse of a 1 MB file). Collect rarely while linting; the old thresholds come back."""
    old = gc.get_threshold()
    gc.set_threshold(max(old[0], 100_000), *old[1:])
    try:
        yield
    finally:
        gc.set_threshold(*old)


def _parse_pieces(text: str, starts: List[int], memo: Memo):
    """``text`` parsed one top-level statement at a time, each piece from ``memo``'s cache when its text is
    unchanged; None if a piece does not parse on its own (then the whole text is parsed as usual).

    The assembled module has the same statements (and so the same findings) as a parse of the whole text;
    only the comments and blank lines between top-level statements sit at the end of the piece before
    instead of before the next statement, which no analysis or fix reads. A piece is used once per lint
    (two pieces of equal text get nodes of their own, as in a parse of the whole text)."""

    offsets = line_starts(text)
    firsts = sorted({1} | {line for line in starts if 1 < line <= len(offsets)})
    cuts = [offsets[line - 1] for line in firsts] + [len(text)]
    cached = memo.pieces
    pieces: List[Tuple[_Piece, int]] = []
    used: Dict[str, List[_Piece]] = {}
    for first, begin, end in zip(firsts, cuts, cuts[1:]):
        chunk = text[begin:end]
        taken = used.setdefault(chunk, [])
        spare = cached.get(chunk, ())
        if len(spare) > len(taken):
            piece = spare[len(taken)]
        else:
            try:
                piece = _Piece(parse(chunk), memo.owner)
            except LintError:
                return None
            memo.parsed_pieces += 1
        taken.append(piece)
        pieces.append((piece, first - 1))
    for chunk, spare in cached.items():
        for piece in spare[len(used.get(chunk, ())):]:
            piece.forget()
    memo.pieces = used
    return pieces


def _assemble(pieces: List[Tuple[_Piece, int]]) -> cst.Module:
    first, last = pieces[0][0].module, pieces[-1][0].module
    # LibCST takes the default indent from the file's first indented block: the first piece that has one
    indent = next((piece.module.default_indent for piece, _before in pieces
                   if any(isinstance(getattr(statement, "body", None), cst.IndentedBlock)
                          for statement in piece.module.body)), "    ")
    body = [statement for piece, _before in pieces for statement in piece.module.body]
    return cst.Module(body=body, header=first.header, footer=last.footer, encoding=first.encoding,
                      default_indent=indent, default_newline=first.default_newline,
                      has_trailing_newline=last.has_trailing_newline)


def _hazards_on_ast(text: str, ast_text: str, tree: Optional[ast.Module], reductions,
                    options: LintOptions) -> bool:
    """The analysis's first look at ``text``, on a tree built from ``ast`` (inplace_lint.syntax.cst_from_ast)
    instead of LibCST's: False means the text certainly has no finding, and LibCST need not parse it.
    True whenever it cannot tell: a hazard found (its finding, message and fix come from LibCST's tree),
    a construct that module does not build, or any error. ``tree``: the ``ast`` tree of ``ast_text``,
    which is ``text`` itself, or the whole text the selection reduced to ``text`` with ``reductions``."""
    limit = sys.getrecursionlimit()
    try:
        sys.setrecursionlimit(max(limit, 10_000))
        if tree is None:
            tree, ast_text, reductions = parse_quietly(text), text, None
        module, converter = convert(ast_text, tree, reductions)
        return report.has_hazards(module, options, converter)
    except AnalysisTooLarge as error:  # LibCST's tree would cost as much again
        raise LintError(f"cannot lint: {error}") from None
    except (Unsupported, SyntaxError, ValueError, RecursionError, MemoryError):
        return True  # LibCST decides, and reports what it must
    except Exception:  # a bug: never a lost finding
        if _debugging():
            raise
        return True
    finally:
        sys.setrecursionlimit(limit)


def _debugging() -> bool:
    """INPLACE_LINT_DEBUG=1 (inplace_lint.model.debug): an internal error raises instead of costing only time."""
    return debug.DEBUG


def _parse_and_analyse(source: str, text: str, path: str, options: LintOptions, pieces=None,
                       owner: Optional[Dict[cst.CSTNode, _Piece]] = None,
                       starts: Optional[List[int]] = None,
                       session: Optional[LintSession] = None) -> List[Finding]:
    session = session if session is not None else LintSession()
    positions = None
    try:
        if pieces is not None:
            module = _assemble(pieces)
            positions = PiecewisePositions(pieces, owner)
        else:
            module = parse(text)
            if StatementPositions.usable(module, starts, text):
                positions = StatementPositions(module, starts)
    except LintError:
        if text is source:
            raise
        # the reduced text must parse whenever the file does; if it does not, that is a selection bug,
        # which must cost time, never a finding or a bogus error: lint the whole text
        session.whole_source_reads += 1  # not a function of the reduced text: not for a Memo
        text = source
        module = parse(source)
        positions = None
    limit = sys.getrecursionlimit()
    try:
        sys.setrecursionlimit(max(limit, 10_000))
        # looked up at each call: tests stand in for the rules' analyze_module
        findings = report.analyze_module(module, source, path, options, parsed_text=text, positions=positions,
                                         session=session)
    except RecursionError:
        raise LintError("cannot lint: the code nests too deeply to analyse") from None
    except LintError:
        raise
    except AnalysisTooLarge as error:
        raise LintError(f"cannot lint: {error}") from None
    except Exception as error:  # an analysis bug must never abort the user's flake8 run
        raise LintError(f"internal error while analysing ({type(error).__name__}: {error}); please report it") from None
    finally:
        sys.setrecursionlimit(limit)
    selected = [f for f in findings if _selected(f.code, options)]
    return sorted(selected, key=lambda f: (f.start, f.code))


def _selected(code: str, options: LintOptions) -> bool:
    def matches(prefixes):
        return max((len(p) for p in prefixes if code.startswith(p)), default=-1)

    chosen = matches(options.select)
    return chosen >= 0 and chosen > matches(options.ignore)
