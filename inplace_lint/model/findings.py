"""Plain data shared by the core and every adapter (CLI, flake8, LSP, pre-commit).

The core returns these; adapters only format them. A :class:`Position` is a 1-based line and a 0-based
column (the LibCST / LSP convention: an offset into the line, in code points); the flake8 adapter adds
nothing, flake8 itself adds 1 to the column. What users read is 1-based: ``Finding.column``, the CLI, JSON.
"""

from __future__ import annotations

from typing import Any, Dict, Literal, Optional, Tuple

from inplace_lint.model.records import FrozenRecord, OrderedRecord, Record, as_dict, factory

Applicability = Literal["safe", "unsafe"]


class Position(OrderedRecord):
    """Ordered by line, then column."""

    line: int  # 1-based
    column: int  # 0-based


class Edit(FrozenRecord):
    """Replace the text between ``start`` and ``end`` (end exclusive) with ``replacement``."""

    start: Position
    end: Position
    replacement: str


class Fix(FrozenRecord):
    title: str  # what the fix does: "Write 'b = b * b'"
    applicability: Applicability  # safe: same forward values, gradients now computable
    edits: Tuple[Edit, ...]


class Evidence(FrozenRecord):
    """Why the finding holds, in the terms a user can check against their code."""

    inplace_op: str  # the in-place operation as written: "*=", "add_()", "[...] =", "inplace=True"
    tensor: str  # the tensor modified in place, as written: "b", "self.h", "x[0]"
    saving_op: Optional[str] = None  # the op that saved the tensor: "b *= b", "torch.exp", "nn.Sigmoid"
    saving_line: Optional[int] = None
    saving_column: Optional[int] = None
    role: Optional[str] = None  # "input" or "result"
    argument: Optional[str] = None  # which argument of the saving op: "self", "other", "input"
    runtime_error: str = ""  # what torch will raise
    saving_path: Optional[str] = None  # the file of the saving op, when it is not the finding's file
    # why the saving op recorded a graph: the expression the grad comes from, its line, and what it is
    # ("parameter", "module_output", "method_input", "requires_grad", "callers_pass", "assumed", ...)
    grad_source: Optional[str] = None
    grad_source_line: Optional[int] = None
    grad_source_column: Optional[int] = None
    grad_reason: Optional[str] = None
    backward_line: Optional[int] = None  # AGI001: the backward call (or the return) that meets the stale save


class InplaceSite(FrozenRecord):
    """Where and how a tensor is modified in place: what an autofix needs to rewrite it.

    ``form`` is one of:
      "augassign"      b *= b                    (node range: the whole statement)
      "method"         x.add_(y)                 (the call)
      "subscript"      x[i] = v / x[i] += v      (the statement)
      "inplace_kwarg"  F.relu(x, inplace=True)   (the call; kwarg_range: the ``inplace=True`` argument)
      "module_ctor"    nn.ReLU(inplace=True)     (the constructor call; kwarg_range likewise)
      "out_kwarg"      torch.add(a, b, out=x)    (the call)
      "function"       torch.relu_(x)            (the call)
      "foreach"        torch._foreach_add_(xs, ys)  (the call; every tensor of the list ``xs`` is written)
    """

    form: str
    start: Position
    end: Position
    target_text: str = ""  # source text of the modified tensor expression
    kwarg_start: Optional[Position] = None
    kwarg_end: Optional[Position] = None
    # Whether the modified tensor is only a local name (rebinding it is then invisible to others).
    target_is_local_name: bool = False
    # Whether the written tensor may be seen through another name: a view or alias held elsewhere, a
    # function argument the caller keeps, an attribute, a global, a parameter. Rewriting the write out of
    # place then changes what those others see, so a fix is unsafe.
    target_shared: bool = True
    # A write through a view (``h[2:].zero_()``, ``h.t().mul_(2)``): the name of the viewed tensor, and
    # whether that tensor may be seen elsewhere (then cloning it first changes what others see).
    base_text: str = ""
    base_shared: bool = True
    # When the only others seeing the tensor are local names (aliases: ``c = h.contiguous()``): those
    # names. A fix may still be safe when none of them is read after the write.
    holders: Tuple[str, ...] = ()


class Related(FrozenRecord):
    """Another place a finding involves, often in another file: where the save or the write is."""

    path: str
    start: Position
    end: Position
    message: str


class Finding(FrozenRecord):
    code: str  # "AGI001"
    name: str  # "saved-tensor-modified-inplace"
    message: str
    path: str
    start: Position
    end: Position
    evidence: Evidence
    site: Optional[InplaceSite] = None
    fix: Optional[Fix] = None
    related: Tuple[Related, ...] = ()  # the halves of the hazard in other files (SARIF, LSP)

    @property
    def line(self) -> int:
        """The 1-based line the finding starts on."""
        return self.start.line

    @property
    def column(self) -> int:
        """The 1-based column the finding starts at, as the CLI, JSON and flake8 show it
        (``start.column`` is the 0-based offset into the line)."""
        return self.start.column + 1

    def to_dict(self) -> dict:
        """Exactly one entry of ``--output-format json`` (1-based rows and columns)."""
        return finding_to_json(self)


class LintOptions(Record):
    """Analysis switches shared by every adapter (CLI flags, config files and flake8 options map here)."""

    # Every function's parameters, and every value of unknown origin (an unknown call's result, an attribute
    # nothing here sets), may be tensors that require grad, with no evidence. Off (the default): only a
    # module method's parameters are (``forward(self, x)``, not ``__init__``'s); a plain function's (the
    # seed's ``fn(a)``) require grad by what this file's calls pass them (``fn(torch.ones(1,
    # requires_grad=True))``), and a value of unknown origin requires none.
    assume_params_are_tensors: bool = False
    # Lint a file on disk with the definitions it imports from its program (inplace_lint.engine.program);
    # the environment's INPLACE_LINT_WHOLE_PROGRAM=1 turns it on too
    whole_program: bool = False
    select: Tuple[str, ...] = ("AGI",)
    ignore: Tuple[str, ...] = ()
    extra: dict = factory(dict)


class LintSession(Record):
    """The state of one lint of one text, passed along instead of kept in module globals."""

    # how often it looked beyond the reduced text the analysis saw (a fix's safety reading the whole text,
    # or the reduced text failing to parse): then its findings are not a function of that text, and a
    # Memo (inplace_lint.engine.core) must not keep them
    whole_source_reads: int = 0


class AnalysisTooLarge(BaseException):
    """One file's analysis would do more work than its fuse allows (inplace_lint.analysis.dataflow's
    ANALYSIS_BUDGET); the engine reports it as one LintError. Not an Exception: the analysis's guards
    against its own gaps (``except Exception``) must let it through."""


class LintError(Exception):
    """The file could not be linted; ``str(error)`` is the one message to show the user."""

    def __init__(self, message: str, line: Optional[int] = None, column: Optional[int] = None):
        super().__init__(message)
        self.line = line
        self.column = column


# Every rule's page; a code without a rule unit (a typo in --select) still gets the address it would have
DOCS_URL = "https://github.com/inplace-lint/inplace-lint/blob/main/docs/rules/{code}.md"


def _location(line: int, column: int) -> Dict[str, int]:
    return {"row": line, "column": column + 1}


def finding_to_json(finding: Finding) -> Dict[str, Any]:
    """One entry of ``--output-format json``: 1-based rows and columns, Ruff's field names."""
    evidence = as_dict(finding.evidence)
    for column in ("saving_column", "grad_source_column"):
        if evidence.get(column) is not None:
            evidence[column] += 1
    if evidence.get("saving_path") is None:
        evidence.pop("saving_path", None)
    fix = None
    if finding.fix is not None:
        fix = {
            "title": finding.fix.title,
            "applicability": finding.fix.applicability,
            "edits": [
                {
                    "content": edit.replacement,
                    "location": _location(edit.start.line, edit.start.column),
                    "end_location": _location(edit.end.line, edit.end.column),
                }
                for edit in finding.fix.edits
            ],
        }
    entry = {
        "code": finding.code,
        "name": finding.name,
        "message": finding.message,
        "filename": finding.path,
        "location": _location(finding.start.line, finding.start.column),
        "end_location": _location(finding.end.line, finding.end.column),
        "url": DOCS_URL.format(code=finding.code),
        "evidence": evidence,
        "fix": fix,
    }
    if finding.related:
        entry["related"] = [{"filename": r.path, "location": _location(r.start.line, r.start.column),
                             "end_location": _location(r.end.line, r.end.column), "message": r.message}
                            for r in finding.related]
    return entry
