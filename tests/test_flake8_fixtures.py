"""The path the evaluation takes: ``flake8 --isolated --select=AGI`` over every fixture reports exactly
the ``# expect:`` markers (line and code), with flake8's 1-based columns."""

import re
import subprocess
import sys
from pathlib import Path

import fixture_support as fs

ROW = re.compile(r"^(?P<path>.+?):(?P<line>\d+):(?P<col>\d+): (?P<code>AGI\d{3}) ")


def test_flake8_reports_exactly_the_markers():
    fixtures = fs.discover()
    run = subprocess.run(
        [sys.executable, "-m", "flake8", "--isolated", "--select=AGI", "--jobs=1",
         *[str(f.path) for f in fixtures]],
        capture_output=True, text=True, timeout=600,
    )
    assert run.returncode in (0, 1), run.stderr
    assert "Traceback" not in run.stderr, run.stderr
    got = {}
    for row in run.stdout.splitlines():
        match = ROW.match(row)
        assert match, row
        key = str(Path(match["path"]).resolve())
        got.setdefault(key, set()).add((int(match["line"]), match["code"]))
        assert int(match["col"]) >= 1
    mismatched = []
    for fixture in fixtures:
        expected = fixture.markers
        found = got.get(str(fixture.path.resolve()), set())
        if found != set(expected):
            mismatched.append((fixture.id, sorted(expected), sorted(found)))
    assert not mismatched, mismatched
