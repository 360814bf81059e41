"""Output formats: concise, json, sarif, github, and ``--statistics`` (``full``: inplace_lint.adapters.terminal).

Positions inside the core are 1-based lines and 0-based columns counted in code points; every format here
shows 1-based columns (as Ruff and flake8 print them). End columns are exclusive: the column just after
the last character of the range.

``json`` is a list with one object per finding::

    code          "AGI001"
    name          "saved-tensor-modified-inplace"
    message       the full message (evidence included)
    filename      the path as given on the command line
    location      {"row": 5, "column": 9}      start, 1-based row and column
    end_location  {"row": 5, "column": 15}     end, exclusive
    url           the rule's documentation
    evidence      {"inplace_op", "tensor", "saving_op", "saving_line", "saving_column" (1-based or null),
                   "role", "argument", "runtime_error"}
    fix           null, or {"title", "applicability": "safe"|"unsafe",
                   "edits": [{"content", "location", "end_location"}]}
"""

from __future__ import annotations

import json
import os
from collections import Counter
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence
from urllib.parse import quote

from inplace_lint.model.findings import DOCS_URL, Finding, finding_to_json
from inplace_lint.model.records import FrozenRecord

FORMATS = ("full", "concise", "json", "sarif", "github")
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
INFORMATION_URI = "https://github.com/inplace-lint/inplace-lint"


class FileError(FrozenRecord):
    """A file that could not be linted (unreadable, unparsable, internal error)."""

    path: str
    message: str
    line: Optional[int] = None
    column: Optional[int] = None  # 0-based

    def render(self) -> str:
        where = self.path
        if self.line is not None:
            where += f":{self.line}:{(self.column or 0) + 1}"
        return f"inplace-lint: {where}: {self.message}"


def file_error_from(path: str, error) -> FileError:
    """A :class:`FileError` for an engine ``LintError``, with its position when it has a real one.

    ``LintError`` defaults to 1:0 when the problem has no position (an internal error); none is shown then.
    """
    message = str(error)
    line, column = getattr(error, "line", None), getattr(error, "column", None)
    if line is None or ((line, column) == (1, 0) and not message.startswith("cannot parse")):
        return FileError(path, message)
    return FileError(path, message, line, column)


def _rule(code: str):
    from inplace_lint.rules import RULES

    return RULES.get(code)


def rule_url(code: str) -> Optional[str]:
    rule = _rule(code)
    if rule is not None:
        return rule.url
    return DOCS_URL.format(code=code)


def format_concise(findings: Sequence[Finding]) -> str:
    return "".join(
        f"{f.path}:{f.start.line}:{f.start.column + 1}: {f.code} {_one_line(f.message)}\n" for f in findings
    )


def _one_line(text: str) -> str:
    return " ".join(text.split()) if "\n" in text or "\r" in text else text


def format_json(findings: Sequence[Finding]) -> str:
    return json.dumps([finding_to_json(f) for f in findings], indent=2, ensure_ascii=False) + "\n"


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def format_github(findings: Sequence[Finding]) -> str:
    """GitHub Actions workflow commands: one ``::error`` annotation per finding."""
    lines = []
    for f in findings:
        props = ",".join(
            [
                f"file={_escape_property(f.path)}",
                f"line={f.start.line}",
                f"col={f.start.column + 1}",
                f"endLine={f.end.line}",
                f"endColumn={f.end.column + 1}",
                f"title={_escape_property(f.code)}",
            ]
        )
        lines.append(f"::error {props}::{_escape_data(f.message)}\n")
    return "".join(lines)


def format_file_errors_github(errors: Sequence[FileError]) -> str:
    lines = []
    for e in errors:
        props = [f"file={_escape_property(e.path)}"]
        if e.line is not None:
            props += [f"line={e.line}", f"col={(e.column or 0) + 1}"]
        props.append("title=inplace-lint")
        lines.append(f"::error {','.join(props)}::{_escape_data(e.message)}\n")
    return "".join(lines)


# --- SARIF 2.1.0 -------------------------------------------------------------------------------------


def _artifact_location(path: str) -> Dict[str, Any]:
    if os.path.isabs(path):
        return {"uri": Path(path).as_uri()}
    return {"uri": quote(Path(path).as_posix()), "uriBaseId": "%SRCROOT%"}


def _region(start_line: int, start_column: int, end_line: int, end_column: int) -> Dict[str, int]:
    return {
        "startLine": start_line,
        "startColumn": start_column + 1,
        "endLine": end_line,
        "endColumn": end_column + 1,
    }


def sarif_rules() -> List[Dict[str, Any]]:
    from inplace_lint.rules import RULES

    rules = []
    for code in sorted(RULES):
        rule = RULES[code]
        rules.append(
            {
                "id": rule.code,
                "name": rule.name,
                "shortDescription": {"text": rule.summary},
                "fullDescription": {"text": rule.doc or rule.summary, "markdown": rule.doc or rule.summary},
                "help": {"text": rule.doc or rule.summary, "markdown": rule.doc or rule.summary},
                "helpUri": rule.url,
                "defaultConfiguration": {"level": "error"},
            }
        )
    return rules


def _sarif_result(finding: Finding, rule_index: Dict[str, int]) -> Dict[str, Any]:
    location = {
        "physicalLocation": {
            "artifactLocation": _artifact_location(finding.path),
            "region": _region(finding.start.line, finding.start.column, finding.end.line, finding.end.column),
        }
    }
    result: Dict[str, Any] = {
        "ruleId": finding.code,
        "level": "error",
        "message": {"text": finding.message},
        "locations": [location],
    }
    if finding.code in rule_index:
        result["ruleIndex"] = rule_index[finding.code]
    evidence = finding.evidence
    related = []
    if evidence.saving_line is not None:
        column = evidence.saving_column or 0
        saving = evidence.saving_op or "an earlier operation"
        related.append(
            {
                "id": 1,
                "physicalLocation": {
                    "artifactLocation": _artifact_location(evidence.saving_path or finding.path),
                    "region": {"startLine": evidence.saving_line, "startColumn": column + 1},
                },
                "message": {"text": f"`{saving}` saved `{evidence.tensor}` here for backward"},
            }
        )
    if evidence.grad_source_line is not None and evidence.grad_source:
        related.append({
            "id": len(related) + 1,
            "physicalLocation": {
                "artifactLocation": _artifact_location(finding.path),
                "region": {"startLine": evidence.grad_source_line,
                           "startColumn": (evidence.grad_source_column or 0) + 1},
            },
            "message": {"text": f"`{evidence.grad_source}` requires grad"},
        })
    for other in finding.related:  # the write in another file of the program
        related.append({
            "id": len(related) + 1,
            "physicalLocation": {
                "artifactLocation": _artifact_location(other.path),
                "region": _region(other.start.line, other.start.column, other.end.line, other.end.column),
            },
            "message": {"text": other.message},
        })
    if related:
        result["relatedLocations"] = related
    if finding.fix is not None and finding.fix.edits:
        result["fixes"] = [
            {
                "description": {"text": finding.fix.title},
                "artifactChanges": [
                    {
                        "artifactLocation": _artifact_location(finding.path),
                        "replacements": [
                            {
                                "deletedRegion": _region(
                                    e.start.line, e.start.column, e.end.line, e.end.column
                                ),
                                "insertedContent": {"text": e.replacement},
                            }
                            for e in finding.fix.edits
                        ],
                    }
                ],
                "properties": {"applicability": finding.fix.applicability},
            }
        ]
    return result


def sarif_log(findings: Sequence[Finding], errors: Sequence[FileError] = ()) -> Dict[str, Any]:
    from inplace_lint import __version__

    rules = sarif_rules()
    rule_index = {rule["id"]: index for index, rule in enumerate(rules)}
    notifications = []
    for e in errors:
        notification: Dict[str, Any] = {"level": "error", "message": {"text": e.message}}
        physical: Dict[str, Any] = {"artifactLocation": _artifact_location(e.path)}
        if e.line is not None:
            physical["region"] = {"startLine": max(e.line, 1), "startColumn": (e.column or 0) + 1}
        notification["locations"] = [{"physicalLocation": physical}]
        notifications.append(notification)
    base = Path.cwd().as_uri().rstrip("/") + "/"
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "inplace-lint",
                        "version": __version__,
                        "informationUri": INFORMATION_URI,
                        "rules": rules,
                    }
                },
                "originalUriBaseIds": {"%SRCROOT%": {"uri": base}},
                "columnKind": "unicodeCodePoints",
                "invocations": [
                    {"executionSuccessful": not errors, "toolExecutionNotifications": notifications}
                ],
                "results": [_sarif_result(f, rule_index) for f in findings],
            }
        ],
    }


def format_sarif(findings: Sequence[Finding], errors: Sequence[FileError] = ()) -> str:
    return json.dumps(sarif_log(findings, errors), indent=2, ensure_ascii=False) + "\n"


# --- statistics --------------------------------------------------------------------------------------


def statistics(findings: Sequence[Finding], unsafe_fixes: bool = False) -> List[Dict[str, Any]]:
    """One row per code, most frequent first: code, name, count, fixable (with the fixes --fix applies)."""
    counts = Counter(f.code for f in findings)
    fixable = Counter(
        f.code
        for f in findings
        if f.fix is not None and f.fix.edits and (f.fix.applicability == "safe" or unsafe_fixes)
    )
    names = {f.code: f.name for f in findings}
    return [
        {"code": code, "name": names[code], "count": count, "fixable": fixable.get(code, 0)}
        for code, count in sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    ]


def format_statistics(
    findings: Sequence[Finding], output_format: str = "concise", unsafe_fixes: bool = False
) -> str:
    rows = statistics(findings, unsafe_fixes)
    if output_format == "json":
        return json.dumps(rows, indent=2) + "\n"
    if not rows:
        return ""
    width = max(len(str(row["count"])) for row in rows)
    lines = []
    for row in rows:
        line = f"{row['count']:>{width}}  {row['code']}  {row['name']}"
        if row["fixable"]:
            line += f"  ({row['fixable']} fixable)"
        lines.append(line + "\n")
    return "".join(lines)


def render(findings: Sequence[Finding], output_format: str, errors: Sequence[FileError] = ()) -> str:
    """The findings in ``output_format`` (file errors are written separately, to stderr)."""
    if output_format == "json":
        return format_json(findings)
    if output_format == "sarif":
        return format_sarif(findings, errors)
    if output_format == "github":
        return format_github(findings) + format_file_errors_github(errors)
    return format_concise(findings)
