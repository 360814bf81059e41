"""Ground truth for the fixture corpus, from running torch.

Every fixture's ``run()`` is executed in runner subprocesses (``fixture_support.run_fixtures``: a few
batches, each fixture in a fresh module namespace, a timeout per run). A fixture with AGI001 markers must
raise torch's version-counter error, one with AGI002 markers the leaf error, and a safe one nothing.
For the hazards, a traced re-run records every version bump and, when backward fails, which stale saved
tensor torch tripped over; the bump that made it stale must be on a marked line.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import re

import pytest

import fixture_support as fs
from inplace_lint.rules import RULES

FIXTURES = fs.discover()
HAZARDS = [f for f in FIXTURES if f.category in fs.HAZARD_CATEGORIES]
MAX_SECONDS = 1.0  # CPU seconds of the running thread per run(), after torch is imported (not wall time)

pytestmark = pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="torch is not installed")


def _ids(fixture):
    return fixture.id


@pytest.fixture(scope="session")
def runtime_results(request, tmp_path_factory):
    """Run every fixture that a selected test of this module needs, once per test run.

    Under pytest-xdist every worker collects the same items; the first worker to take the lock runs them
    (on all cores) and the others read its results, instead of each worker running the whole corpus.
    """
    wanted = set()
    for item in request.session.items:
        callspec = getattr(item, "callspec", None)
        if item.module.__name__ == __name__ and callspec is not None and "fixture" in callspec.params:
            wanted.add(str(callspec.params["fixture"].path.resolve()))
    wanted = sorted(wanted)
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return fs.run_fixtures(wanted)
    import fcntl

    shared = tmp_path_factory.getbasetemp().parent  # common to all workers of this run
    key = hashlib.sha256("\n".join(wanted).encode()).hexdigest()[:16]
    data = shared / f"fixture-runtime-{key}.json"
    with open(shared / f"fixture-runtime-{key}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if data.exists():
            return json.loads(data.read_text(encoding="utf-8"))
        results = fs.run_fixtures(wanted)
        data.write_text(json.dumps(results), encoding="utf-8")
        return results


def _record(results, fixture) -> dict:
    record = results.get(str(fixture.path.resolve()))
    assert record is not None, f"{fixture.id}: no result from the runner"
    assert not record.get("crashed"), (
        f"{fixture.id}: the runner died on this fixture (rc={record.get('returncode')}):\n"
        f"{record.get('stderr')}"
    )
    plain = record["plain"]
    if plain["exc_type"] == "ModuleNotFoundError" and "torch" not in plain["message"]:
        pytest.skip(f"optional dependency missing: {plain['message']}")
    return record


def _outcome(run: dict) -> str:
    if run["exc_type"] is None:
        return "no exception"
    where = f" (fixture line {run['raised_at']})" if run.get("raised_at") else ""
    return f"{run['exc_type']}{where}: {run['message'][:400]}"


@pytest.mark.parametrize("fixture", FIXTURES, ids=_ids)
def test_raises_iff_marked(fixture, runtime_results):
    plain = _record(runtime_results, fixture)["plain"]
    if fixture.category == fs.SAFE_CATEGORY:
        assert plain["exc_type"] is None, f"safe fixture raised {_outcome(plain)}"
        return
    code = fixture.category  # the folder it lives in; torch's text confirms it (fs.confirms)
    what = f"the error of {code} ({RULES[code].name}: {RULES[code].torch_error!r})"
    assert plain["kind"] == code, f"expected {what}, got {_outcome(plain)}"


@pytest.mark.parametrize("fixture", HAZARDS, ids=_ids)
def test_torch_blames_the_marked_lines(fixture, runtime_results):
    record = _record(runtime_results, fixture)
    if record["plain"]["kind"] not in fs.HAZARD_CATEGORIES:
        pytest.skip("fixture did not raise (reported by test_raises_iff_marked)")
    traced = record["traced"]
    assert traced["kind"] == record["plain"]["kind"], f"tracing changed the outcome: {_outcome(traced)}"
    # the tracer redoes torch's version check (its hooks silence torch's own) in torch's words; only the
    # name of the saved tensor's node can differ (torch knows whether a tensor made inside a composite op
    # was saved as an input or an output; a Python hook cannot tell)
    node = re.compile(r", which is output \d+ of \w+,")
    assert node.sub("", traced["message"]) == node.sub("", record["plain"]["message"]), (
        f"the tracer's error differs from torch's: {traced['message']!r}"
    )
    blamed = traced.get("culprit_lines") or []
    assert blamed, f"no line to blame (stale saved tensors seen: {traced.get('stale_found')})"
    assert fs.blamed_lines_match(blamed, fixture.marker_lines, fixture.source), (
        f"torch blames line(s) {blamed}, markers are on {sorted(fixture.marker_lines)}"
    )


@pytest.mark.parametrize("fixture", FIXTURES, ids=_ids)
def test_run_contract(fixture, runtime_results):
    """run() is fast, returns its forward output(s) as tensors, and is deterministic."""
    record = _record(runtime_results, fixture)
    plain = record["plain"]
    # the fastest of the runs made: the first run in a runner also pays torch's one-off lazy costs for any
    # op no earlier fixture used (0.26 s for the first F.dropout), and CI load can stretch one run 4x
    runs = ("plain", "repeat", "hooked", "traced")
    timings = {name: record[name]["seconds"] for name in runs if name in record}
    assert min(timings.values()) < MAX_SECONDS, f"every run() took too long: {timings} s"
    if plain["exc_type"] is None:
        assert plain["returns_tensors"], f"run() must return tensor(s), got {plain['returns']}"
        assert record["deterministic"], "two fresh runs returned different values"
    elif plain["kind"] == "AGI001":
        # identity saved_tensors_hooks silence the version check: run() then gets past its backward
        hooked = record["hooked"]
        assert hooked["exc_type"] is None, f"under saved_tensors_hooks run() still raised {_outcome(hooked)}"
        assert hooked["returns_tensors"], f"run() must return tensor(s), got {hooked['returns']}"
