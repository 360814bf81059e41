"""From the analysis's events to findings: which rule reports each, one finding per write, its message and
its fix (each rule's ``report`` module says how).

:func:`analyze_module` is what the engine calls for a parsed module, and ``has_hazards`` its first look on
a tree built from ``ast``: the engine finds both here, where tests stand in for them.
"""

from __future__ import annotations

import importlib
import io
import re
import tokenize
from typing import Dict, List, Optional, Set, Tuple

import libcst as cst

from inplace_lint.analysis import Analysis, analyse, has_hazards  # noqa: F401 - the engine's first look
from inplace_lint.analysis.values import (
    ANNOTATED, ASSUMED, AUTOGRAD_CALLBACK, CALLERS_PASS, HOOKED_INPUT, METHOD_INPUT, MODULE_OUTPUT,
    MODULE_PARAMETERS, PARAMETER, REQUIRES_GRAD,
)
from inplace_lint.fixkit import fixes
from inplace_lint.model import debug
from inplace_lint.model.events import WriteEvent
from inplace_lint.model.findings import Evidence, Finding, InplaceSite, LintOptions, LintSession, Position
from inplace_lint.rules import RULES, Rule

RULE_OF_EVENT: Dict[type, Rule] = {rule.event: rule for rule in RULES.values()}
# each rule's ``report`` module (inplace_lint.rules.<unit>.report): ``report(draft) -> Finding`` and
# ``plan_fix(parse, finding) -> fixkit plan or None``; loaded with this module, as the registry finds them
BEHAVIOURS = {code: importlib.import_module(rule.unit + ".report") for code, rule in RULES.items()}


def analyze_module(module, source: str, path: str, options: LintOptions, parsed_text: Optional[str] = None,
                   positions=None, session: Optional[LintSession] = None) -> List[Finding]:
    """Findings for ``module``, parsed from ``parsed_text`` (``source`` itself, or the line-preserving
    reduced text inplace_lint.syntax.select made of it). ``positions``: see analysis.analyse. ``session``:
    the lint's state, told when a finding read more of ``source`` than ``parsed_text`` holds."""
    analysis = analyse(module, source, options, parsed_text, positions)
    if analysis is None:
        return []
    lint = _Lint(analysis, source, path, session if session is not None else LintSession())
    findings = []
    for event in one_per_write(analysis):
        finding = lint.finding(event)
        if finding is not None:
            findings.append(finding)
    return findings


def one_per_write(analysis: Analysis) -> List[WriteEvent]:
    """One event per (rule, position of the write); of several saving ops, the earliest. Chosen before
    any message is rendered: a chain of writes (``b.add_(1).add_(1)...``) has as many events as links. A
    rule's ``SUPERSEDES`` drops those codes where it fires at the same write."""
    positions = analysis.positions
    superseded: Dict[str, Set] = {}  # code -> the write positions where a rule superseding it fires
    for event in analysis.events:
        for code in RULE_OF_EVENT[type(event)].supersedes:
            if event.write.node in positions:
                superseded.setdefault(code, set()).add(positions[event.write.node].start)
    best: Dict[Tuple[str, int, int], Tuple[Tuple[int, int, int], WriteEvent]] = {}
    for event in analysis.events:
        where = positions.get(event.write.node)
        if where is None:
            continue
        code = RULE_OF_EVENT[type(event)].code
        saved_at = (0, 0)
        node = getattr(event, "save_node", None)
        if node is not None and node in positions:
            saved_at = (positions[node].start.line, positions[node].start.column)
        rank = (saved_at[0], saved_at[1], event.write.site)
        if where.start in superseded.get(code, ()):
            continue
        key = (code, where.start.line, where.start.column)
        if key not in best or rank < best[key][0]:
            best[key] = (rank, event)
    return [event for _rank, event in best.values()]


def behaviour(rule: Rule):
    """The ``report`` module of ``rule``'s unit."""
    return BEHAVIOURS[rule.code]


def attach_fix(finding: Finding, source: str) -> Finding:
    """``finding`` with the fix its rule plans for it in ``source`` (its own parse), as a lint attaches it."""
    return fixes.attach(finding, source, behaviour(RULES[finding.code]).plan_fix)


# How a finding says why a tensor requires grad (values.GradOrigin kinds): (what the source is, whether
# that is evidence it requires grad or only that it may)
_ORIGIN_PHRASES = {
    PARAMETER: ("a parameter", True),
    MODULE_OUTPUT: ("a module's output", True),
    REQUIRES_GRAD: ("", True),
    METHOD_INPUT: ("an input of '{function}'", False),
    ANNOTATED: ("a Tensor parameter of '{function}'", False),
    AUTOGRAD_CALLBACK: ("what torch's autograd passes '{function}'", True),
}


def quote(text: str) -> str:
    """'b' for a name the user wrote; descriptions ("its input", "the parameters of D") stay bare."""
    return text if text.startswith(("its ", "the ")) else f"'{text}'"


class _Lint:
    """One module's findings being built: the analysis, the text, and the parse the fixes reuse."""

    def __init__(self, analysis: Analysis, source: str, path: str, session: LintSession):
        self.analysis = analysis
        self.source = source
        self.path = path
        self.session = session
        self._parse = None

    def parse(self):
        """The analysis's parse, with what the fixes need (made once, when a fix first needs it)."""
        if self._parse is None:
            analysis = self.analysis
            self._parse = fixes.reuse(analysis.parsed_text, analysis.module, analysis.positions)
        return self._parse

    def finding(self, event: WriteEvent) -> Optional[Finding]:
        draft = Draft.of(self, event)
        if draft is None:
            return None
        return behaviour(draft.rule).report(draft)

    def private_helper_write(self, event: WriteEvent) -> bool:
        """A write to a parameter of a private helper (``_name``) that every call in this file makes on an
        argument its caller cannot see afterwards, and that no other name in the helper holds: rebinding
        the parameter instead changes nothing anyone observes."""
        helper = event.private_helper
        if helper is None or not helper.startswith("_"):
            return False
        source = self.source
        # every mention of the helper's name in the code (not in strings or comments) is one of the calls
        # seen, plus its definition
        if not re.search(r"(?<![\w])" + re.escape(helper) + r"(?!\w)", source):
            return False
        self.session.whole_source_reads += 1
        try:
            mentions = sum(1 for token in tokenize.generate_tokens(io.StringIO(source).readline)
                           if token.type == tokenize.NAME and token.string == helper)
        except (tokenize.TokenError, SyntaxError):
            return False
        return mentions == event.helper_calls + 1


class Draft:
    """What a rule's ``report`` sees of one event: where the write is, its texts, and the helpers that
    build the finding and its fix."""

    def __init__(self, lint: _Lint, event: WriteEvent, rule: Rule, start: Position, end: Position,
                 site: InplaceSite):
        self.lint = lint
        self.event = event
        self.rule = rule
        self.start = start
        self.end = end
        self.site = site
        self.source = lint.source
        self.path = lint.path
        self.positions = lint.analysis.positions
        self.inplace_flip = lint.analysis.inplace_flip
        self.op = self.code(event.write.op_text)
        self.target = site.target_text or "its input"
        self.target_q = quote(self.target)

    @classmethod
    def of(cls, lint: _Lint, event: WriteEvent) -> "Optional[Draft]":
        write = event.write
        positions = lint.analysis.positions
        code_range = positions.get(write.node)
        if code_range is None:
            return None
        start = Position(code_range.start.line, code_range.start.column)
        end = Position(code_range.end.line, code_range.end.column)
        kwarg_start = kwarg_end = None
        if write.kwarg_node is not None and write.kwarg_node in positions:
            kr = positions[write.kwarg_node]
            kwarg_start = Position(kr.start.line, kr.start.column)
            kwarg_end = Position(kr.end.line, kr.end.column)
        code = lint.analysis.code
        written = write.target_text or (code(write.target_node, 80) if write.target_node is not None else "")
        shared = event.shared
        holders = tuple(sorted(event.holders or ()))
        if shared and lint.private_helper_write(event):
            shared, holders = False, ()
        site = InplaceSite(write.form, start, end, written, kwarg_start, kwarg_end,
                           write.target_is_local_name, shared, event.base_text, event.base_shared, holders)
        return cls(lint, event, RULE_OF_EVENT[type(event)], start, end, site)

    quote = staticmethod(quote)

    def code(self, node, limit: int = 60) -> str:
        """The source of ``node`` on one line, shortened; a string is returned as it is."""
        return self.lint.analysis.code(node, limit)

    def grad_evidence(self, origin) -> Tuple[str, Optional[Position], Optional[str]]:
        """The clause saying why a tensor requires grad (``origin``: a values.GradOrigin; for AGI001, the
        saving op's operand, which made it record a graph), as in "because 'self.fc(x)' on line 10, a
        module's output, requires grad"; where its source is, and its text."""
        if origin is None:
            return "", None, None
        positions = self.positions

        def place(node) -> Optional[Position]:
            return Position(positions[node].start.line, positions[node].start.column) if node in positions else None

        where = place(origin.source)
        text = self.code(origin.source)
        on_line = f" on line {where.line}" if where is not None else ""
        if origin.kind == MODULE_PARAMETERS:
            # the module, as the code names it: the called expression of ``self.fc(x)``, a constructor
            source = origin.source.func if isinstance(origin.source, cst.Call) and where is not None and \
                not self.code(origin.source.func).startswith(("nn.", "torch.", "super")) else origin.source
            module = self.code(source)
            return f" because the parameters of '{module}'{on_line} require grad", where, module
        if origin.kind == CALLERS_PASS:
            verb = "requires grad" if origin.certain else "may require grad"
            clause = f" because the calls of '{origin.function}' pass '{text}' a tensor that {verb}"
            via = origin.via
            passed = place(via.source) if via is not None and via.kind != CALLERS_PASS else None
            if passed is not None:
                passed_text = self.code(via.source)
                return f"{clause} ('{passed_text}' on line {passed.line})", passed, passed_text
            return clause, where, text
        if origin.kind == HOOKED_INPUT:
            return f" because the input of '{text}'{on_line} may require grad", where, None
        if origin.kind == ASSUMED:
            return f" because '{text}' is assumed to require grad (assume-params-are-tensors)", where, text
        what, certain = _ORIGIN_PHRASES.get(origin.kind, ("", False))
        what = what.format(function=origin.function or "this function")
        verb = "requires grad" if certain else "may require grad"
        return f" because '{text}'{on_line}{', ' + what + ',' if what else ''} {verb}", where, text

    @staticmethod
    def aside(because: str) -> str:
        """A :meth:`grad_evidence` clause set apart: " (because 'x' ... requires grad)"."""
        return f" ({because.strip()})" if because else ""

    @staticmethod
    def with_grad_evidence(evidence: Evidence, origin, at: Optional[Position], source: Optional[str]) -> Evidence:
        """``evidence`` with why the tensor requires grad: ``origin``'s kind, and where its source is (what
        :meth:`grad_evidence` found)."""
        if origin is None:
            return evidence
        return evidence.replace(grad_source=source, grad_reason=origin.kind,
                                grad_source_line=at.line if at is not None else None,
                                grad_source_column=at.column if at is not None else None)

    def finding(self, message: str, evidence: Evidence) -> Finding:
        rule = self.rule
        return Finding(rule.code, rule.name, message, self.path, self.start, self.end, evidence, self.site)

    def parse(self):
        return self.lint.parse()

    def with_fix(self, finding: Finding, plan=None) -> Finding:
        """``finding`` with the fix ``plan(parse, finding)`` makes (a fixkit plan), its title appended to the
        message; unchanged when there is none."""
        return fixes.attach(finding, self.source, plan, self.lint.parse)

    def with_own_fix(self, finding: Finding, plan, why: str, advice: str) -> Finding:
        """``finding`` with the fix ``plan()`` makes for it (where the usual per-form fixes would be
        wrong), its message told ``why`` and then the fix's title, or ``advice`` when there is no fix."""
        try:
            fix = plan()
        except Exception:  # never a crash: the finding stands without its fix
            if debug.DEBUG:
                raise
            fix = None
        message = f"{finding.message} {why} {fix.title if fix is not None else advice}."
        return finding.replace(message=message, fix=fix)
