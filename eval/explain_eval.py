"""Does ``inplace-lint explain`` name the marked culprit line? Run programs plain and under explain.

    python -m eval.explain_eval               # every program in eval/forum_programs/ and eval/corpus_repros/
    python -m eval.explain_eval -v PATH...            # these programs (files or folders); -v lists every miss

A program is run as ``python PROGRAM`` would (in its own folder, as ``__main__``), first plain, then the
way ``inplace-lint explain PROGRAM`` runs it; many programs share one runner subprocess (torch is
imported once), each with a time limit. A program "raises" when its plain run ends with one of the
four errors the rules predict, or prints one it caught (the repros catch theirs). Then:

- found: every explanation's blamed line is a marked line (``# culprit``, or ``# expect: AGI00N`` in the
  test fixtures), or inside a multi-line statement starting on one;
- a clean program must get no explanation, the same exit status and the same stdout.

The runner half, ``--runner``, is what :mod:`tests.test_explain` uses for the test fixtures.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import io
import json
import os
import re
import runpy
import signal
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Dict, List, Optional, Sequence

ROOT = Path(__file__).resolve().parent
DEFAULT_PATHS = [ROOT / "forum_programs", ROOT / "corpus_repros"]
MARKER = re.compile(r"#\s*(?:culprit\b|expect:\s*AGI\d{3})")
TIMEOUT = 60.0


def marked_lines(source: str) -> List[int]:
    return [n for n, text in enumerate(source.splitlines(), 1) if MARKER.search(text)]


def statement_start(source: str) -> Dict[int, int]:
    """Line -> first line of the innermost statement covering it."""
    starts: Dict[int, int] = {}
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return starts
    nodes = sorted((n for n in ast.walk(tree) if isinstance(n, ast.stmt)),
                   key=lambda n: n.end_lineno - n.lineno, reverse=True)
    for node in nodes:
        for line in range(node.lineno, node.end_lineno + 1):
            starts[line] = node.lineno
    return starts


# --------------------------------------------------------------------------------------------------
# Runner (imports torch)


class _Timeout(BaseException):
    pass


_INITIAL_SEED = [0]  # torch's seed when the runner started (a fresh process's)


def _run(path: str, traced: bool, timeout: float, static_check: bool = True) -> dict:
    """Run ``path`` as ``__main__`` in its folder; stdout, stderr, status and the explanations.

    A test fixture with no ``__main__`` block is loaded and its ``run()`` called, traced through the
    Python API (``with inplace_lint.explain(): run()``) instead of the command's runner.
    """
    import torch

    from inplace_lint.explainer.cli import run_program
    from inplace_lint.explainer.report import classify
    from inplace_lint.explainer.session import explain

    out, err = io.StringIO(), io.StringIO()
    session = explain(static_check=static_check)
    with open(path, encoding="utf-8") as handle:
        source = handle.read()
    call_run = "__main__" not in source and "def run(" in source
    cwd = os.getcwd()
    modules = set(sys.modules)
    result = {"status": None, "kind": None, "timeout": False}

    def on_alarm(signum, frame):
        raise _Timeout()

    previous = signal.signal(signal.SIGALRM, on_alarm)
    # as in a fresh process: a program that draws random numbers before seeding gets the same ones in
    # its plain and its traced run
    torch.manual_seed(_INITIAL_SEED[0])
    torch.set_grad_enabled(True)
    result["grad_mode_at_start"] = torch.is_grad_enabled()
    try:
        os.chdir(os.path.dirname(path))
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            signal.setitimer(signal.ITIMER_REAL, timeout)
            try:
                if call_run:
                    result["status"] = _call_run(path, session if traced else None)
                elif traced:
                    result["status"] = run_program(path, None, [], session=session)
                else:
                    result["status"] = _run_plain(path)
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
    except _Timeout:
        result["timeout"] = True
    finally:
        signal.signal(signal.SIGALRM, previous)
        os.chdir(cwd)
        for name in set(sys.modules) - modules:  # a repro's sibling helper is imported afresh each time
            if not name.startswith(("torch", "numpy")):
                sys.modules.pop(name, None)
        torch.set_grad_enabled(True)
        torch.set_default_dtype(torch.float32)
        torch.autograd.set_detect_anomaly(False)
    result["stdout"], result["stderr"] = out.getvalue(), err.getvalue()
    # the error the program died of, or one it caught and printed (the repros print theirs)
    result["kind"] = classify(result["stderr"]) or classify(result["stdout"])
    result["reports"] = session.reports
    result["blamed"] = [[(s.path, s.line) for s in sites] for sites in session.culprits]
    return result


def _run_plain(path: str) -> int:
    saved_argv, saved_path = sys.argv[:], sys.path[:]
    sys.argv, sys.path[:0] = [path], [os.path.dirname(path)]
    try:
        runpy.run_path(path, run_name="__main__")
        return 0
    except SystemExit as exit:
        return exit.code if isinstance(exit.code, int) else (0 if exit.code is None else 1)
    except Exception:
        import traceback

        traceback.print_exc()
        return 1
    finally:
        sys.argv, sys.path[:] = saved_argv, saved_path


def _call_run(path: str, session) -> int:
    import traceback

    try:
        namespace = runpy.run_path(path, run_name="__fixture__")
        if session is None:
            namespace["run"]()
        else:
            with session:
                namespace["run"]()
        return 0
    except Exception:
        traceback.print_exc()
        return 1


def runner_main(argv: Sequence[str]) -> int:
    import warnings

    parser = argparse.ArgumentParser()
    parser.add_argument("--runner", action="store_true")
    parser.add_argument("--out", required=True)
    parser.add_argument("--timeout", type=float, default=TIMEOUT)
    parser.add_argument("--traced-only-if-raising", action="store_true")
    parser.add_argument("--no-static-check", action="store_true")
    parser.add_argument("paths", nargs="*")
    args = parser.parse_args(argv)
    warnings.filterwarnings("ignore")
    import torch

    _INITIAL_SEED[0] = torch.initial_seed()
    with open(args.out, "a", encoding="utf-8") as handle:
        for path in args.paths:
            record = {"path": path, "plain": _run(path, False, args.timeout)}
            if record["plain"]["kind"] or not args.traced_only_if_raising:
                record["traced"] = _run(path, True, args.timeout, not args.no_static_check)
            handle.write(json.dumps(record) + "\n")
            handle.flush()
    return 0


# --------------------------------------------------------------------------------------------------
# Orchestration (no torch)


def run_programs(paths: Sequence[Path], jobs: int = 2, timeout: float = TIMEOUT,
                 traced_only_if_raising: bool = False, static_check: bool = True) -> Dict[str, dict]:
    """``{path: {"plain": ..., "traced": ...}}``; a runner that dies loses only the program it was on."""
    pending = [str(Path(p).resolve()) for p in paths]
    results: Dict[str, dict] = {}
    env = dict(os.environ, OMP_NUM_THREADS="1", MKL_NUM_THREADS="1", PYTHONDONTWRITEBYTECODE="1")
    extra = ["--traced-only-if-raising"] if traced_only_if_raising else []
    extra += [] if static_check else ["--no-static-check"]
    with tempfile.TemporaryDirectory(prefix="inplace-lint-explain-") as tmp:
        batches = [pending[i::jobs] for i in range(jobs) if pending[i::jobs]]
        round_ = 0
        while batches:
            round_ += 1
            started = []
            for index, batch in enumerate(batches):
                out = Path(tmp) / f"{round_}-{index}.jsonl"
                proc = subprocess.Popen([sys.executable, __file__, "--runner", "--out", str(out),
                                         "--timeout", str(timeout), *extra, *batch],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
                started.append((proc, batch, out))
            batches = []
            for proc, batch, out in started:
                _, stderr = proc.communicate()
                got = {}
                if out.exists():
                    for line in out.read_text(encoding="utf-8").splitlines():
                        record = json.loads(line)
                        got[record["path"]] = record
                results.update(got)
                missing = [p for p in batch if p not in got]
                if missing:
                    results[missing[0]] = {"path": missing[0], "crashed": True,
                                           "stderr": stderr.decode(errors="replace")[-2000:]}
                    if missing[1:]:
                        batches.append(missing[1:])
    return results


def verdict(path: str, record: dict) -> str:
    """found / missed / no-report (a raising program), clean / noisy / changed (a clean one), crashed."""
    if record.get("crashed"):
        return "crashed"
    source = Path(path).read_text(encoding="utf-8")
    plain, traced = record["plain"], record.get("traced")
    if plain["kind"]:
        if traced is None or not traced["blamed"]:
            return "no-report"
        marks = set(marked_lines(source))
        starts = statement_start(source)
        real = os.path.realpath(path)

        def on_mark(sites) -> bool:
            if not sites:
                return False
            where, line = sites[0]
            return os.path.realpath(where) == real and (line in marks or starts.get(line) in marks)

        # every explanation (a repro catches several errors) blames a marked line
        return "found" if all(on_mark(sites) for sites in traced["blamed"]) else "missed"
    if traced is None:
        return "clean"
    if traced["reports"]:
        return "noisy"
    if traced["status"] != plain["status"] or traced["stdout"] != plain["stdout"]:
        return "changed"
    return "clean"


def _expand(paths: Sequence[str]) -> List[Path]:
    found: List[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            found.extend(sorted(q for q in p.rglob("*.py") if not q.name.startswith("_")))
        else:
            found.append(p)
    return found


def main(argv: Optional[Sequence[str]] = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if "--runner" in argv:
        return runner_main(argv)
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-v", "--verbose", action="store_true")
    parser.add_argument("-j", "--jobs", type=int, default=2)
    parser.add_argument("--json", help="write every record to this file")
    parser.add_argument("--traced-only-if-raising", action="store_true",
                        help="skip the traced run of clean programs (about half the time)")
    parser.add_argument("paths", nargs="*")
    args = parser.parse_args(argv)
    programs = _expand(args.paths or [str(p) for p in DEFAULT_PATHS])
    results = run_programs(programs, jobs=args.jobs, traced_only_if_raising=args.traced_only_if_raising)
    counts: Dict[str, int] = {}
    for program in programs:
        key = str(program.resolve())
        v = verdict(key, results[key])
        counts[v] = counts.get(v, 0) + 1
        if args.verbose and v not in ("found", "clean"):
            print(f"{v:10} {program}")
    if args.json:
        Path(args.json).write_text(json.dumps(results), encoding="utf-8")
    raising = counts.get("found", 0) + counts.get("missed", 0) + counts.get("no-report", 0)
    clean = counts.get("clean", 0) + counts.get("noisy", 0) + counts.get("changed", 0)
    print(f"programs {len(programs)}: raising {raising}, culprit named {counts.get('found', 0)}/{raising} "
          f"(missed {counts.get('missed', 0)}, no report {counts.get('no-report', 0)}); clean {clean}: "
          f"no report and same output {counts.get('clean', 0)}/{clean} (noisy {counts.get('noisy', 0)}, "
          f"changed {counts.get('changed', 0)}); crashed {counts.get('crashed', 0)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
