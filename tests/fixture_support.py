"""The fixture corpus: discovery, ``# expect:`` markers, and a subprocess runner that executes fixtures.

Layout::

    tests/fixtures/AGI001/*.py   hazards torch reports at backward (saved tensor modified in place)
    tests/fixtures/AGI002/*.py   hazards torch reports at once (in-place on a leaf that requires grad)
    tests/fixtures/AGI003/*.py   hazards torch reports at once (in-place on a split/chunk/unbind output)
    tests/fixtures/AGI004/*.py   hazards torch reports at once (in-place, grad on, on a view made in no_grad)
    tests/fixtures/safe/*.py     look-alikes that run cleanly and must not be flagged

Every fixture defines ``run()`` (forward + backward, returns the forward output(s)). An expected finding
is written on the line of the in-place operation: ``b *= b  # expect: AGI001`` (several codes may be
comma-separated).

Importing this module never imports torch: the lint tests use it at collection time. The runner half
(:func:`runner_main`) runs in a subprocess, ``python tests/fixture_support.py --out FILE PATH...``, and
writes one JSON object per fixture to FILE as soon as the fixture is done. Per fixture it records:

``plain``       the outcome of ``run()`` in a fresh module namespace: exception type, message, the kind
                of autograd error (``AGI001`` ... ``AGI004`` / None), what it returned, seconds taken.
``repeat``      safe fixtures only: a second fresh run, compared bit for bit with the first.
``hooked``      AGI001-style failures only: a run under identity ``saved_tensors_hooks`` (which silence
                the version check), to show ``run()`` gets past its backward and returns forward outputs.
``traced``      failing fixtures only: a run under ``inplace-lint explain``'s tracer
                (``inplace_lint.explainer.tracer``, only the fixture's own lines counted as user code): a
                ``TorchFunctionMode`` that records every version
                bump with its line in the fixture, and saved-tensor hooks that redo torch's version check
                and so know which saved tensor went stale; that tensor's first bump past the version it
                was saved at is the culprit. ``culprit_lines`` are the fixture lines the error comes from
                (for AGI002, AGI003 and AGI004, the line where torch raised its error).
"""

from __future__ import annotations

import ast
import io
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import tokenize
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, FrozenSet, Iterable, List, Optional, Sequence, Set, Tuple

from inplace_lint.rules import RULES

FIXTURES_DIR = Path(__file__).resolve().parent / "fixtures"
HAZARD_CATEGORIES = tuple(sorted(RULES))  # a rule's fixtures live in tests/fixtures/<CODE>/
SAFE_CATEGORY = "safe"
CATEGORIES = HAZARD_CATEGORIES + (SAFE_CATEGORY,)

MIN_FIXTURES = 110
MIN_SAFE_FIXTURES = 40
MIN_FIXTURES_PER_RULE = 5

_MARKER = re.compile(r"#\s*expect:\s*(.*?)\s*$")
_CODE = re.compile(r"^AGI\d{3}$")

DEFAULT_TIMEOUT = 20.0  # seconds per run() call inside the runner


# --------------------------------------------------------------------------------------------------
# Discovery and markers (no torch)


class MarkerError(ValueError):
    pass


def parse_markers(source: str) -> FrozenSet[Tuple[int, str]]:
    """``{(line, code)}`` for every ``# expect: CODE[, CODE...]`` comment (real comments only)."""
    found: Set[Tuple[int, str]] = set()
    tokens = tokenize.generate_tokens(io.StringIO(source).readline)
    for token in tokens:
        if token.type != tokenize.COMMENT:
            continue
        match = _MARKER.search(token.string)
        if not match:
            if re.search(r"#\s*expect\b", token.string):
                raise MarkerError(f"line {token.start[0]}: malformed marker {token.string!r}")
            continue
        codes = [c.strip() for c in match.group(1).split(",")]
        if not codes or not all(_CODE.match(c) for c in codes):
            raise MarkerError(f"line {token.start[0]}: malformed marker {token.string!r}")
        for code in codes:
            found.add((token.start[0], code))
    return frozenset(found)


@dataclass(frozen=True)
class Fixture:
    path: Path
    category: str  # "AGI001" ... "AGI004" or "safe"

    @property
    def id(self) -> str:
        return f"{self.category}/{self.path.stem}"

    @property
    def source(self) -> str:
        return self.path.read_text(encoding="utf-8")

    @property
    def markers(self) -> FrozenSet[Tuple[int, str]]:
        return parse_markers(self.source)

    @property
    def codes(self) -> FrozenSet[str]:
        return frozenset(code for _, code in self.markers)

    @property
    def marker_lines(self) -> FrozenSet[int]:
        return frozenset(line for line, _ in self.markers)


def discover(root: Path = FIXTURES_DIR) -> List[Fixture]:
    """Every fixture, sorted by category then name."""
    fixtures = []
    for category in CATEGORIES:
        directory = root / category
        if directory.is_dir():
            paths = sorted(p for p in directory.glob("*.py") if not p.name.startswith("_"))
            fixtures.extend(Fixture(p, category) for p in paths)
    return fixtures


def statement_starts(source: str) -> Dict[int, int]:
    """Line -> first line of the innermost statement covering it (for multi-line statements)."""
    starts: Dict[int, int] = {}
    tree = ast.parse(source)
    nodes = sorted(
        (n for n in ast.walk(tree) if isinstance(n, ast.stmt)),
        key=lambda n: (n.end_lineno - n.lineno),
        reverse=True,
    )
    for node in nodes:  # outermost first, so inner statements overwrite
        for line in range(node.lineno, node.end_lineno + 1):
            starts[line] = node.lineno
    return starts


def blamed_lines_match(blamed: Iterable[int], markers: FrozenSet[int], source: str) -> bool:
    """Every line torch blames is a marker line, or inside a multi-line statement whose first line is."""
    starts = statement_starts(source)
    blamed = list(blamed)
    return bool(blamed) and all(line in markers or starts.get(line) in markers for line in blamed)


# --------------------------------------------------------------------------------------------------
# Orchestration (pytest side, no torch): run fixtures in subprocesses


def run_fixtures(
    paths: Sequence[os.PathLike],
    jobs: Optional[int] = None,
    timeout: float = DEFAULT_TIMEOUT,
) -> Dict[str, dict]:
    """Run fixtures in ``jobs`` parallel runner subprocesses; ``{str(path): result}``.

    A runner that dies or hangs loses only the fixture it was on (reported with ``"crashed"``); the rest
    of its batch is run again in a new runner.
    """
    pending = [str(Path(p).resolve()) for p in paths]
    jobs = max(1, min(jobs or min(2, os.cpu_count() or 1), len(pending) or 1))
    results: Dict[str, dict] = {}
    batches = [pending[i::jobs] for i in range(jobs)]
    with tempfile.TemporaryDirectory(prefix="inplace-lint-fixtures-") as tmp:
        round_ = 0
        while batches:
            round_ += 1
            started = []
            for index, batch in enumerate(batches):
                out = Path(tmp) / f"results-{round_}-{index}.jsonl"
                err = open(Path(tmp) / f"stderr-{round_}-{index}.txt", "w+")
                proc = subprocess.Popen(
                    [sys.executable, __file__, "--out", str(out), "--timeout", str(timeout), *batch],
                    stdout=subprocess.DEVNULL,
                    stderr=err,
                    env=_runner_env(),
                )
                started.append((proc, batch, out, err))
            batches = []
            for proc, batch, out, err in started:
                # each run() is bounded inside the runner by an alarm; this is the backstop for a hang in
                # native code that the alarm cannot interrupt, or a runner that never starts
                budget = 60 + 10 * len(batch)
                try:
                    proc.wait(timeout=budget)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
                got = {}
                if out.exists():
                    for line in out.read_text(encoding="utf-8").splitlines():
                        if line.strip():
                            record = json.loads(line)
                            got[record["path"]] = record
                results.update(got)
                missing = [p for p in batch if p not in got]
                if missing:
                    err.seek(0)
                    tail = err.read()[-3000:]
                    results[missing[0]] = {
                        "path": missing[0],
                        "crashed": True,
                        "returncode": proc.returncode,
                        "stderr": tail,
                    }
                    if missing[1:]:
                        batches.append(missing[1:])
                err.close()
    return results


def _runner_env() -> dict:
    env = dict(os.environ)
    # tiny tensors: threads only add start-up cost and contention between parallel runners
    env.setdefault("OMP_NUM_THREADS", "1")
    env.setdefault("MKL_NUM_THREADS", "1")
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


# --------------------------------------------------------------------------------------------------
# Runner (subprocess side: imports torch)


class _FixtureTimeout(BaseException):
    """Raised by the alarm; a BaseException so fixture code catching Exception cannot swallow it."""


# What torch raises for each rule's fixtures (torch 2.13), as its unit declares it (TORCH_ERROR). A fixture's
# category is the folder it lives in (tests/fixtures/<CODE>/); torch's text only confirms that a run raised
# that rule's error.
TORCH_ERRORS = {code: re.compile(rule.torch_error) for code, rule in RULES.items()}


def category_of(path) -> Optional[str]:
    """The category of the fixture at ``path``: the folder it lives in (a rule's code, or "safe")."""
    folder = Path(path).parent.name
    return folder if folder in CATEGORIES else None


def confirms(category: Optional[str], exc_type: Optional[str], message: str) -> bool:
    """Is ``exc_type: message`` the error torch raises for the rule ``category``?"""
    pattern = TORCH_ERRORS.get(category or "")
    return exc_type == "RuntimeError" and pattern is not None and bool(pattern.search(message))


def classify(exc_type: Optional[str], message: str) -> Optional[str]:
    """The rule whose error a run of any program raised, or None (for programs outside the fixture
    folders: a fix's output, which must raise none of them)."""
    return next((code for code in HAZARD_CATEGORIES if confirms(code, exc_type, message)), None)


def _describe(value) -> str:
    import torch

    if isinstance(value, torch.Tensor):
        return f"Tensor({str(value.dtype).replace('torch.', '')},{list(value.shape)})"
    if isinstance(value, tuple):
        return "tuple[" + ", ".join(_describe(v) for v in value) + "]"
    return f"other:{type(value).__name__}"


def _returns_tensors(value) -> bool:
    import torch

    if isinstance(value, torch.Tensor):
        return True
    return isinstance(value, tuple) and len(value) > 0 and all(isinstance(v, torch.Tensor) for v in value)


def _same(a, b) -> bool:
    import torch

    if isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor):
        return (
            a.dtype == b.dtype
            and a.shape == b.shape
            and bool(torch.equal(a.detach(), b.detach()) or (a.isnan().all() and b.isnan().all()))
        )
    if isinstance(a, tuple) and isinstance(b, tuple):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return False


def _tensors_in(obj, depth: int = 0) -> list:
    import torch

    if isinstance(obj, torch.Tensor):
        return [obj]
    if depth > 3:
        return []
    if isinstance(obj, (list, tuple)):
        return [t for item in obj for t in _tensors_in(item, depth + 1)]
    if isinstance(obj, dict):
        return [t for item in obj.values() for t in _tensors_in(item, depth + 1)]
    return []


def _make_tracer(fixture_file: str):
    """The product's tracer (``inplace_lint.explainer.tracer``), with only the fixture's own code counted
    as the user's: every write and save is attributed to a fixture line."""
    from inplace_lint.explainer.tracer import Tracer

    return Tracer(is_user=lambda filename: os.path.realpath(filename) == fixture_file)


def _culprit_lines(tracer) -> List[int]:
    """The fixture lines of the writes that made each stale saved tensor stale (first seen first)."""
    lines: List[int] = []
    for stale in tracer.stale:
        site = stale.culprit.site if stale.culprit else None
        if site is not None and site.blamed.line not in lines:
            lines.append(site.blamed.line)
    return lines


_counter = [0]


def _execute(path: str, timeout: float, hooks: bool = False, trace: bool = False) -> dict:
    """Load the fixture in a fresh module namespace and call ``run()``; never raises."""
    import contextlib
    import importlib.util
    import signal
    import traceback

    import torch

    _counter[0] += 1
    name = f"_inplace_lint_fixture_{_counter[0]}"
    result = {"exc_type": None, "message": "", "kind": None, "returns": None, "seconds": None}
    result["raised_at"] = None  # innermost fixture line in the traceback
    value = None
    tracer = None
    contexts = contextlib.ExitStack()

    def on_alarm(signum, frame):
        raise _FixtureTimeout()

    previous = signal.signal(signal.SIGALRM, on_alarm)
    torch.set_grad_enabled(True)
    # CPU time of this thread, not wall time: other load on the machine does not stretch it
    start = time.thread_time()
    try:
        with contexts:
            contexts.enter_context(contextlib.redirect_stdout(io.StringIO()))
            if hooks:
                contexts.enter_context(torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t))
            if trace:
                tracer = contexts.enter_context(_make_tracer(os.path.realpath(path)))
            signal.setitimer(signal.ITIMER_REAL, timeout)
            try:
                spec = importlib.util.spec_from_file_location(name, path)
                module = importlib.util.module_from_spec(spec)
                sys.modules[name] = module
                spec.loader.exec_module(module)
                run = getattr(module, "run", None)
                if run is None:
                    raise AttributeError("fixture defines no run()")
                value = run()
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
    except _FixtureTimeout:
        result.update(exc_type="Timeout", message=f"run() did not finish within {timeout} s")
    except (Exception, SystemExit) as error:  # report everything a fixture can raise; let Ctrl-C through
        result["exc_type"] = type(error).__name__
        result["message"] = str(error)[:1000]
        # the fixture's rule (its folder), when torch raised that rule's error
        category = category_of(path)
        result["kind"] = category if confirms(category, type(error).__name__, str(error)) else None
        own = os.path.realpath(path)
        frames = [f for f in traceback.extract_tb(error.__traceback__) if os.path.realpath(f.filename) == own]
        if frames:
            result["raised_at"] = frames[-1].lineno
    finally:
        result["seconds"] = round(time.thread_time() - start, 4)
        signal.signal(signal.SIGALRM, previous)
        sys.modules.pop(name, None)
        torch.set_grad_enabled(True)
        torch.set_default_dtype(torch.float32)
        torch.autograd.set_detect_anomaly(False)
    if result["exc_type"] is None:
        result["returns"] = _describe(value)
        result["returns_tensors"] = _returns_tensors(value)
    if tracer is not None:
        if result["kind"] == "AGI001":
            result["culprit_lines"] = _culprit_lines(tracer)
        else:  # the leaf error is raised at the in-place call itself; outside any torch call (mark_dirty
            # checks in Function.apply) the traceback's innermost fixture line is the best we have
            fallback = [result["raised_at"]] if result["raised_at"] else []
            immediate = [tracer.immediate[0].site.blamed.line] if tracer.immediate else []
            result["culprit_lines"] = immediate or fallback
        result["stale_found"] = len(tracer.stale)
    result["_value"] = value
    return result


def _public(result: dict) -> dict:
    return {k: v for k, v in result.items() if not k.startswith("_")}


def probe_fixture(path: str, timeout: float = DEFAULT_TIMEOUT) -> dict:
    record = {"path": path}
    plain = _execute(path, timeout)
    record["plain"] = _public(plain)
    if plain["exc_type"] is None:
        repeat = _execute(path, timeout)
        record["repeat"] = _public(repeat)
        record["deterministic"] = repeat["exc_type"] is None and _same(plain["_value"], repeat["_value"])
    if plain["kind"] == "AGI001":
        record["hooked"] = _public(_execute(path, timeout, hooks=True))
    if plain["kind"] in HAZARD_CATEGORIES:
        record["traced"] = _public(_execute(path, timeout, trace=True))
    return record


def _warm_up() -> None:
    """Pay torch's one-off lazy costs before the first fixture is timed: the import (~1 s) and the first
    ``optimizer.step()`` in a process (~1.3 s of lazy imports in torch 2.13)."""
    import torch

    model = torch.nn.Linear(2, 1)
    for opt in (torch.optim.SGD(model.parameters(), lr=0.1), torch.optim.Adam(model.parameters())):
        model(torch.ones(1, 2)).sum().backward()
        opt.step()
        opt.zero_grad()


def runner_main(argv: Sequence[str]) -> int:
    import argparse
    import warnings

    parser = argparse.ArgumentParser(description="Run inplace-lint fixtures; one JSON line per fixture.")
    parser.add_argument("--out", required=True)
    parser.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT)
    parser.add_argument("paths", nargs="*")
    args = parser.parse_args(argv)
    warnings.filterwarnings("ignore")
    _warm_up()

    with open(args.out, "a", encoding="utf-8") as out:
        for path in args.paths:
            out.write(json.dumps(probe_fixture(path, args.timeout)) + "\n")
            out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(runner_main(sys.argv[1:]))


def fix_source(source: str, path: str = "<string>", unsafe: bool = False, options=None):
    """``(new_source, fixes_applied, remaining)``: the CLI's one fix loop, with ``options`` handed to the
    engine as they are (no config file involved)."""
    from inplace_lint.engine.config import Settings
    from inplace_lint.engine.core import lint_source
    from inplace_lint.fixkit.apply import fix_text

    result = fix_text(source, path, Settings(), unsafe=unsafe,
                      linter=lambda text, where, _options: lint_source(text, where, options))
    return result.source, result.fixed, result.remaining
