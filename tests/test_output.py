"""Output formats: concise, json, sarif (validated against the official schema), github, statistics."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from inplace_lint.model.findings import Edit, Evidence, Finding, Fix, Position
from inplace_lint.adapters.output import (
    FileError,
    finding_to_json,
    format_concise,
    format_github,
    format_json,
    format_sarif,
    format_statistics,
    render,
    statistics,
)
from inplace_lint.rules import RULES

DATA = Path(__file__).parent / "data"


def seed_finding(path: str = "seed.py", fix: bool = True) -> Finding:
    start, end = Position(5, 8), Position(5, 14)
    return Finding(
        code="AGI001",
        name="saved-tensor-modified-inplace",
        message="`b *= b` modifies `b`, which `b *= b` saved for backward (line 5)",
        path=path,
        start=start,
        end=end,
        evidence=Evidence(
            inplace_op="*=",
            tensor="b",
            saving_op="b *= b",
            saving_line=5,
            saving_column=8,
            role="input",
            argument="self",
            runtime_error="one of the variables needed for gradient computation has been modified",
        ),
        fix=Fix("Write 'b = b * b'", "safe", (Edit(start, end, "b = b * b"),)) if fix else None,
    )


def leaf_finding(path: str = "leaf.py") -> Finding:
    return Finding(
        code="AGI002",
        name="leaf-modified-inplace",
        message="`w.zero_()` modifies a leaf, with 100% certainty: a, b",
        path=path,
        start=Position(3, 4),
        end=Position(3, 13),
        evidence=Evidence(inplace_op="zero_()", tensor="w"),
    )


def test_concise_uses_one_based_columns():
    assert format_concise([seed_finding()]) == (
        "seed.py:5:9: AGI001 `b *= b` modifies `b`, which `b *= b` saved for backward (line 5)\n"
    )


def test_concise_keeps_each_finding_on_one_line():
    finding = seed_finding()
    multi = Finding(**{**finding.__dict__, "message": "first line\nsecond   line"})
    assert format_concise([multi]) == "seed.py:5:9: AGI001 first line second line\n"


def test_json_fields():
    data = json.loads(format_json([seed_finding(), leaf_finding()]))
    first = data[0]
    assert set(first) == {
        "code",
        "name",
        "message",
        "filename",
        "location",
        "end_location",
        "url",
        "evidence",
        "fix",
    }
    assert first["code"] == "AGI001"
    assert first["name"] == "saved-tensor-modified-inplace"
    assert first["filename"] == "seed.py"
    assert first["location"] == {"row": 5, "column": 9}
    assert first["end_location"] == {"row": 5, "column": 15}
    assert first["url"] == RULES["AGI001"].url
    assert first["evidence"]["saving_line"] == 5
    assert first["evidence"]["saving_column"] == 9  # 1-based like every column in the output
    assert first["evidence"]["tensor"] == "b"
    assert first["fix"] == {
        "title": "Write 'b = b * b'",
        "applicability": "safe",
        "edits": [
            {
                "content": "b = b * b",
                "location": {"row": 5, "column": 9},
                "end_location": {"row": 5, "column": 15},
            }
        ],
    }
    assert data[1]["fix"] is None
    assert data[1]["evidence"]["saving_line"] is None


def test_json_of_nothing_is_an_empty_list():
    assert json.loads(format_json([])) == []


def test_json_does_not_mutate_the_finding():
    finding = seed_finding()
    finding_to_json(finding)
    assert finding.evidence.saving_column == 8


def test_github_annotations_escape_data_and_properties():
    finding = leaf_finding(path="dir,with:odd/leaf.py")
    line = format_github([finding])
    assert line == (
        "::error file=dir%2Cwith%3Aodd/leaf.py,line=3,col=5,endLine=3,endColumn=14,title=AGI002::"
        "`w.zero_()` modifies a leaf, with 100%25 certainty: a, b\n"
    )


def test_github_seed():
    assert format_github([seed_finding()]).startswith(
        "::error file=seed.py,line=5,col=9,endLine=5,endColumn=15,title=AGI001::`b *= b` modifies"
    )


def test_statistics_counts_per_code():
    findings = [seed_finding(), seed_finding(fix=False), leaf_finding()]
    rows = statistics(findings)
    assert rows == [
        {"code": "AGI001", "name": "saved-tensor-modified-inplace", "count": 2, "fixable": 1},
        {"code": "AGI002", "name": "leaf-modified-inplace", "count": 1, "fixable": 0},
    ]
    text = format_statistics(findings)
    assert text.splitlines() == [
        "2  AGI001  saved-tensor-modified-inplace  (1 fixable)",
        "1  AGI002  leaf-modified-inplace",
    ]
    assert json.loads(format_statistics(findings, "json")) == rows


def test_statistics_counts_unsafe_fixes_only_when_asked():
    finding = seed_finding()
    unsafe = Finding(**{**finding.__dict__, "fix": Fix("t", "unsafe", finding.fix.edits)})
    assert statistics([unsafe])[0]["fixable"] == 0
    assert statistics([unsafe], unsafe_fixes=True)[0]["fixable"] == 1


# --- SARIF -------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def sarif_validator():
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((DATA / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
    validator_class = jsonschema.validators.validator_for(schema, default=jsonschema.Draft4Validator)
    validator_class.check_schema(schema)
    return validator_class(schema, format_checker=validator_class.FORMAT_CHECKER)


def _validate(validator, log):
    errors = sorted(validator.iter_errors(log), key=lambda e: list(e.path))
    assert not errors, "\n".join(f"{list(e.path)}: {e.message}" for e in errors)


def test_the_vendored_schema_is_the_official_one():
    schema = json.loads((DATA / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
    assert schema["id"].endswith("/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json")
    assert len(schema["definitions"]) > 40  # the full schema, not a subset


def test_sarif_is_valid_and_complete(sarif_validator, tmp_path):
    absolute = str(tmp_path / "abs path.py")
    log = json.loads(format_sarif([seed_finding(), leaf_finding(), seed_finding(path=absolute)]))
    _validate(sarif_validator, log)
    assert log["version"] == "2.1.0"
    run = log["runs"][0]
    driver = run["tool"]["driver"]
    assert driver["name"] == "inplace-lint"
    assert [rule["id"] for rule in driver["rules"]] == sorted(RULES)
    agi001 = driver["rules"][0]
    assert agi001["name"] == RULES["AGI001"].name
    assert agi001["shortDescription"]["text"] == RULES["AGI001"].summary
    assert agi001["fullDescription"]["text"] == RULES["AGI001"].doc
    assert agi001["help"]["markdown"] == RULES["AGI001"].doc
    assert agi001["helpUri"] == RULES["AGI001"].url
    assert run["columnKind"] == "unicodeCodePoints"
    assert run["invocations"][0]["executionSuccessful"] is True

    result = run["results"][0]
    assert result["ruleId"] == "AGI001"
    assert result["ruleIndex"] == 0
    assert result["level"] == "error"
    assert result["message"]["text"].startswith("`b *= b` modifies")
    location = result["locations"][0]["physicalLocation"]
    assert location["artifactLocation"] == {"uri": "seed.py", "uriBaseId": "%SRCROOT%"}
    assert location["region"] == {"startLine": 5, "startColumn": 9, "endLine": 5, "endColumn": 15}
    related = result["relatedLocations"][0]
    assert related["physicalLocation"]["region"] == {"startLine": 5, "startColumn": 9}
    assert "saved `b` here for backward" in related["message"]["text"]
    replacement = result["fixes"][0]["artifactChanges"][0]["replacements"][0]
    assert replacement["insertedContent"]["text"] == "b = b * b"
    assert "relatedLocations" not in run["results"][1]
    assert "fixes" not in run["results"][1]
    assert run["results"][2]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].startswith(
        "file:///"
    )


def test_sarif_reports_files_that_could_not_be_linted(sarif_validator):
    errors = [FileError("bad.py", "cannot parse: bad input", 3, 4), FileError("gone.py", "no such file")]
    log = json.loads(format_sarif([], errors))
    _validate(sarif_validator, log)
    invocation = log["runs"][0]["invocations"][0]
    assert invocation["executionSuccessful"] is False
    notes = invocation["toolExecutionNotifications"]
    assert notes[0]["message"]["text"] == "cannot parse: bad input"
    assert notes[0]["locations"][0]["physicalLocation"]["region"] == {"startLine": 3, "startColumn": 5}
    assert log["runs"][0]["results"] == []


def test_sarif_of_nothing_is_valid(sarif_validator):
    _validate(sarif_validator, json.loads(format_sarif([])))


def test_render_dispatches_by_format():
    findings = [seed_finding()]
    assert render(findings, "concise") == format_concise(findings)
    assert render(findings, "json") == format_json(findings)
    assert render(findings, "github") == format_github(findings)
    assert json.loads(render(findings, "sarif"))["version"] == "2.1.0"


def test_file_error_renders_on_one_line():
    assert (
        FileError("x.py", "cannot parse: oops", 2, 0).render() == "inplace-lint: x.py:2:1: cannot parse: oops"
    )
    assert FileError("x.py", "cannot read: denied").render() == "inplace-lint: x.py: cannot read: denied"
