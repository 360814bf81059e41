"""eval/identity.py, the proof that a restructuring changes no finding, message or fix: two recordings of
the same code compare equal, and a changed record is reported."""

import gzip
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HAZARD = "AGI001/abs_input_neg_.py"  # a finding with a safe fix; the first clean fixture is the other file


def _identity(*args):
    return subprocess.run([sys.executable, "-m", "eval.identity", *map(str, args)], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)


def _record(out):
    safe = sorted(p.relative_to(ROOT / "tests" / "fixtures").as_posix()
                  for p in (ROOT / "tests" / "fixtures" / "safe").glob("*.py"))[0]
    done = _identity("record", out, "--corpora", "fixtures", "--match", HAZARD, "--match", safe, "-j", "1")
    assert done.returncode == 0, done.stderr
    return done


def _records(path):
    with gzip.open(path, "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f]


def test_two_recordings_of_the_same_code_compare_equal_and_a_change_is_reported(tmp_path):
    first, second, changed = tmp_path / "a.jsonl.gz", tmp_path / "b.jsonl.gz", tmp_path / "c.jsonl.gz"
    _record(first)
    _record(second)
    records = _records(first)
    files = [r for r in records if "meta" not in r]
    assert len(files) == 4 and {r["level"] for r in files} == {"default", "assume-params-are-tensors"}
    (hazard,) = [r for r in files if r["path"] == HAZARD and r["level"] == "default"]
    (finding,) = hazard["findings"]
    assert finding["code"] == "AGI001" and finding["fix"]["applicability"] == "safe"
    assert hazard["fix_safe"]["fixed"] == 1 and hazard["fix_safe"]["changed"]

    same = _identity("compare", first, second)
    assert same.returncode == 0, same.stdout
    assert "identical" in same.stdout

    # a fixture that moved keeps its output: it is matched by its text, and its new path is not a difference
    moved = [_renamed(r, HAZARD, "agi001/abs_input_neg_.py") for r in records]
    _write(changed, moved)
    same = _identity("compare", first, changed)
    assert same.returncode == 0, same.stdout
    assert "fixtures: 2 records matched by content under a new path" in same.stdout

    finding["message"] += " (changed)"
    _write(changed, records)
    differ = _identity("compare", first, changed)
    assert differ.returncode == 1, differ.stdout
    assert f"{HAZARD} [default]: findings[0].message" in differ.stdout


def _renamed(record, old, new):
    return json.loads(json.dumps(record).replace(old, new)) if record.get("path") == old else record


def _write(path, records):
    with gzip.open(path, "wt", encoding="utf-8") as f:
        f.writelines(json.dumps(r) + "\n" for r in records)
