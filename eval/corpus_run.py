"""Lint a large real-world corpus and report crashes, internal errors, per-file time and every finding.

    python -m eval.corpus_run                         # every corpus, 2 workers, 5 s budget per file
    python -m eval.corpus_run --corpus timm --corpus torchvision
    python -m eval.corpus_run --debug                 # INPLACE_LINT_DEBUG=1: analysis exceptions surface
    python -m eval.corpus_run --stress                # also analyse files that do not mention torch
    python -m eval.corpus_run --list                  # the corpora, their files and lines; lint nothing

Not part of the test run. Corpora (see ``--list``):

``stdlib-X.Y``     CPython's standard library of every CPython found on this machine (the running
                   interpreter's, and pyenv / /usr/lib installs), without ``site-packages``
``torch``          the installed torch wheel's Python sources (torch, torchgen, functorch), read as text
``transformers``, ``timm``, ``torchvision``   fetched by :mod:`benchmarks.corpus` (``pip download``)

Each file is linted in a worker process (``--jobs``) exactly as the CLI reads it (bytes, PEP 263 /
BOM decoding, then :func:`inplace_lint.engine.core.lint_source`). A file over ``--kill-after`` seconds has its
worker killed and is reported as a timeout; a worker that dies is reported as a crash. A **crash** is any
exception other than ``LintError``, a ``LintError`` that says "internal error", or a dead worker. Files
over ``--budget`` seconds (default 5) are listed as over budget.

``--stress`` appends ``import torch`` to every file, so the analysis (not only the prefilter) runs on the
whole corpus; its findings are meaningless (stdlib code is not torch code) and are only counted.

``--debug`` sets ``INPLACE_LINT_DEBUG=1`` in the workers: the analysis then lets per-statement exceptions
escape instead of skipping the statement, the engine turns them into an "internal error" ``LintError``,
and this script records the original traceback (the engine raises ``from None``, which keeps it in
``__context__``).

Output (``--out``, default ``eval/.cache/corpus-run/<name>``): ``results.jsonl`` (one line per file,
written as results arrive, so a long run can be watched), ``summary.json`` and ``summary.md`` (numbers,
crashes with tracebacks, LintErrors by kind, slowest files, every finding). Exit status 1 when there is a
crash, an internal error, a timeout or a file over budget; else 0.

Nothing here imports or runs the linted code.
"""

from __future__ import annotations

import argparse
import glob
import json
import multiprocessing
import os
import re
import sys
import time
import traceback
from collections import Counter
from dataclasses import dataclass
from multiprocessing.connection import wait
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Tuple

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

DEFAULT_OUT = ROOT / "eval" / ".cache" / "corpus-run"
STRESS_SUFFIX = "\nimport torch  # appended by corpus_run --stress\n"
PACKAGES = ("transformers", "timm", "torchvision")


# --------------------------------------------------------------------------------------------------
# Corpora


@dataclass
class Corpus:
    name: str
    roots: List[Path]
    note: str = ""

    def files(self) -> List[Path]:
        seen = set()
        out = []
        for root in self.roots:
            for path in sorted(root.rglob("*.py")):
                if any(part in ("site-packages", "dist-packages") for part in path.relative_to(root).parts):
                    continue
                if path.is_symlink() or not path.is_file():
                    continue
                real = path.resolve()
                if real in seen:
                    continue
                seen.add(real)
                out.append(path)
        return out


def _stdlib_dirs() -> Dict[str, Path]:
    """``{"3.11": Path(...)}``: the stdlib of every CPython on this machine (newest patch per X.Y)."""
    import sysconfig

    found: Dict[str, Path] = {}
    own = Path(sysconfig.get_paths()["stdlib"])
    found[f"{sys.version_info[0]}.{sys.version_info[1]}"] = own
    patterns = [
        os.path.expanduser("~/.pyenv/versions/*/lib/python[23].*"),
        "/usr/lib/python[23].*",
        "/usr/local/lib/python[23].*",
    ]
    for pattern in patterns:
        for candidate in sorted(glob.glob(pattern)):
            path = Path(candidate)
            match = re.fullmatch(r"python(\d+\.\d+)", path.name)
            if not match or not (path / "os.py").exists():
                continue
            found.setdefault(match.group(1), path)
    return dict(sorted(found.items(), key=lambda kv: tuple(int(p) for p in kv[0].split("."))))


def all_corpora(fetch: bool = True) -> List[Corpus]:
    from benchmarks import corpus as bc

    corpora = [Corpus(f"stdlib-{v}", [p], str(p)) for v, p in _stdlib_dirs().items()]
    torch_dir = bc.torch_sources()
    if torch_dir is not None:
        siblings = [torch_dir.parent / n for n in ("torchgen", "functorch")]
        roots = [torch_dir] + [p for p in siblings if p.is_dir()]
        corpora.append(Corpus("torch", roots, ", ".join(str(r) for r in roots)))
    for name in PACKAGES:
        target = bc.CACHE / name
        if fetch or (target / ".unpacked").exists():
            root = bc.fetch(name)
            corpora.append(Corpus(name, [root], (root / ".unpacked").read_text().strip()))
    return corpora


def count_lines(path: Path) -> int:
    try:
        with open(path, "rb") as handle:
            return sum(1 for _ in handle)
    except OSError:
        return 0


# --------------------------------------------------------------------------------------------------
# The worker (one file at a time)


def classify_lint_error(message: str) -> str:
    lowered = message.lower()
    if "internal error" in lowered:
        return "internal error"
    if "nul byte" in lowered:
        return "NUL byte"
    if "nests too deeply" in lowered:
        return "too deep"
    if lowered.startswith("cannot parse"):
        return "syntax error"
    if lowered.startswith("cannot decode"):
        return "cannot decode"
    return "other: " + message[:60]


def lint_file(path: str, stress: bool) -> dict:
    """Lint one file as the CLI reads it. Never raises."""
    from inplace_lint.adapters.cli import read_source
    from inplace_lint.engine.core import LintError, lint_source

    record: dict = {"status": "ok", "findings": []}
    start = time.perf_counter()
    try:
        data = Path(path).read_bytes()
    except OSError as error:
        record.update(status="unreadable", message=str(error), seconds=0.0)
        return record
    try:
        source, _ = read_source(data)
    except (SyntaxError, UnicodeDecodeError, LookupError) as error:
        record.update(status="lint_error", kind="cannot decode", message=f"cannot decode: {error}",
                      seconds=time.perf_counter() - start)
        return record
    if stress:
        source += STRESS_SUFFIX
    lint_start = time.perf_counter()
    try:
        findings = lint_source(source, path)
    except LintError as error:
        kind = classify_lint_error(str(error))
        status = "crash" if kind == "internal error" else "lint_error"
        record.update(status=status, kind=kind, message=str(error))
        cause = error.__cause__ or error.__context__
        if cause is not None:
            record["traceback"] = "".join(traceback.format_exception(type(cause), cause, cause.__traceback__))
    except BaseException as error:  # noqa: B036 - a crash is exactly what this script is looking for
        record.update(status="crash", kind=type(error).__name__, message=f"{type(error).__name__}: {error}",
                      traceback=traceback.format_exc())
    else:
        record["findings"] = [
            {"line": f.start.line, "column": f.start.column, "code": f.code,
             "message": " ".join(f.message.split())}
            for f in findings
        ]
    end = time.perf_counter()
    record["seconds"] = end - start
    record["lint_seconds"] = end - lint_start
    return record


def _worker_main(conn, debug: bool, stress: bool) -> None:
    if debug:
        os.environ["INPLACE_LINT_DEBUG"] = "1"
    else:
        os.environ.pop("INPLACE_LINT_DEBUG", None)
    import inplace_lint.engine.core  # noqa: F401 - import before the first task so its time is not counted

    try:
        import inplace_lint.analysis  # noqa: F401
    except Exception:
        pass
    while True:
        try:
            task = conn.recv()
        except EOFError:
            return
        if task is None:
            return
        conn.send(lint_file(task, stress))


class Worker:
    def __init__(self, ctx, debug: bool, stress: bool):
        self.parent, child = ctx.Pipe()
        self.process = ctx.Process(target=_worker_main, args=(child, debug, stress), daemon=True)
        self.process.start()
        child.close()
        self.task: Optional[Tuple[int, str]] = None
        self.started = 0.0

    def give(self, index: int, path: str) -> None:
        self.task = (index, path)
        self.started = time.monotonic()
        self.parent.send(path)

    def kill(self) -> None:
        try:
            self.process.kill()
        finally:
            self.process.join(5)
            self.parent.close()


def run_files(files: List[Tuple[str, str]], jobs: int, kill_after: float, debug: bool, stress: bool,
              on_result) -> None:
    """Lint ``[(corpus, path)]`` with ``jobs`` workers; call ``on_result(corpus, path, record)``."""
    ctx = multiprocessing.get_context("spawn")
    workers = [Worker(ctx, debug, stress) for _ in range(max(1, jobs))]
    queue = list(reversed(list(enumerate(files))))

    def feed(worker: Worker) -> None:
        if queue:
            index, (_, path) = queue.pop()
            worker.give(index, path)
        else:
            worker.task = None

    for worker in workers:
        feed(worker)
    while any(w.task is not None for w in workers):
        busy = {w.parent: w for w in workers if w.task is not None}
        ready = wait(list(busy), timeout=0.5)
        now = time.monotonic()
        for conn in ready:
            worker = busy[conn]
            index, path = worker.task
            try:
                record = conn.recv()
            except (EOFError, OSError):
                worker.process.join(5)
                record = {"status": "crash", "kind": "worker died", "findings": [],
                          "message": f"the worker died (exit code {worker.process.exitcode})",
                          "seconds": now - worker.started}
                workers[workers.index(worker)] = worker = Worker(ctx, debug, stress)
            on_result(files[index][0], path, record)
            feed(worker)
        for position, worker in enumerate(workers):
            if worker.task is not None and now - worker.started > kill_after and worker.parent not in ready:
                index, path = worker.task
                worker.kill()
                on_result(files[index][0], path, {
                    "status": "timeout", "kind": "timeout", "findings": [],
                    "message": f"killed after {kill_after:.0f} s", "seconds": now - worker.started})
                workers[position] = replacement = Worker(ctx, debug, stress)
                feed(replacement)
    for worker in workers:
        try:
            worker.parent.send(None)
        except OSError:
            pass
        worker.process.join(5)
        if worker.process.is_alive():
            worker.kill()


# --------------------------------------------------------------------------------------------------
# Reports


def percentile(values: List[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, int(round(q * (len(ordered) - 1)))))
    return ordered[index]


def summarize(records: List[dict], corpora: Dict[str, dict], budget: float, args) -> dict:
    by_corpus: Dict[str, dict] = {}
    for name, info in corpora.items():
        rows = [r for r in records if r["corpus"] == name]
        times = [r.get("seconds", 0.0) for r in rows]
        by_corpus[name] = {
            "files": info["files"],
            "lines": info["lines"],
            "linted": len(rows),
            "findings": sum(len(r["findings"]) for r in rows),
            "crashes": sum(r["status"] in ("crash",) for r in rows),
            "timeouts": sum(r["status"] == "timeout" for r in rows),
            "lint_errors": dict(Counter(r.get("kind") for r in rows if r["status"] == "lint_error")),
            "max_seconds": max(times, default=0.0),
            "p99_seconds": percentile(times, 0.99),
            "total_seconds": sum(times),
            "root": info["root"],
        }
    times = [r.get("seconds", 0.0) for r in records]
    crashes = [r for r in records if r["status"] in ("crash", "timeout")]
    slowest = sorted(records, key=lambda r: -r.get("seconds", 0.0))[:25]
    return {
        "mode": {"debug": args.debug, "stress": args.stress, "jobs": args.jobs, "budget": budget,
                 "kill_after": args.kill_after},
        "python": sys.version.split()[0],
        "files": sum(c["files"] for c in by_corpus.values()),
        "lines": sum(c["lines"] for c in by_corpus.values()),
        "linted": len(records),
        "crashes": len([r for r in crashes if r["status"] == "crash"]),
        "timeouts": len([r for r in crashes if r["status"] == "timeout"]),
        "over_budget": [(r["path"], r.get("seconds", 0.0))
                        for r in records if r.get("seconds", 0.0) > budget],
        "lint_errors": dict(Counter(r.get("kind") for r in records if r["status"] == "lint_error")),
        "max_seconds": max(times, default=0.0),
        "p99_seconds": percentile(times, 0.99),
        "p50_seconds": percentile(times, 0.50),
        "wall_seconds": args.wall_seconds,
        "findings": sum(len(r["findings"]) for r in records),
        "corpora": by_corpus,
        "slowest": [{"path": r["path"], "corpus": r["corpus"], "seconds": r.get("seconds", 0.0),
                     "lines": r.get("lines")} for r in slowest],
        "crash_records": [{k: r.get(k) for k in ("corpus", "path", "status", "kind", "message", "traceback")}
                          for r in crashes],
        "lint_error_records": [{k: r.get(k) for k in ("corpus", "path", "kind", "message")}
                               for r in records if r["status"] == "lint_error"],
        "all_findings": [dict(corpus=r["corpus"], path=r["path"], **f)
                         for r in records for f in r["findings"]],
    }


def _short(path: str) -> str:
    for marker in ("/.cache/", "/site-packages/", "/lib/"):
        if marker in path:
            return path.split(marker, 1)[1]
    return path


def markdown(summary: dict) -> str:
    out = []
    mode = summary["mode"]
    flags = [k for k in ("debug", "stress") if mode[k]]
    out.append(f"# Corpus run ({', '.join(flags) or 'default mode'})\n")
    out.append(f"Python {summary['python']}, {mode['jobs']} workers, budget {mode['budget']} s per file, "
               f"wall time {summary['wall_seconds']:.0f} s.\n")
    out.append(f"- **{summary['lines']:,} lines** in **{summary['files']:,} files** "
               f"({summary['linted']:,} linted)")
    out.append(f"- crashes: **{summary['crashes']}**, timeouts: **{summary['timeouts']}**, "
               f"files over budget: **{len(summary['over_budget'])}**")
    out.append(f"- per-file time: max {summary['max_seconds']:.2f} s, p99 {summary['p99_seconds']:.3f} s, "
               f"median {summary['p50_seconds']:.4f} s")
    out.append(f"- LintErrors by kind: {summary['lint_errors'] or 'none'}")
    out.append(f"- findings: {summary['findings']}\n")
    out.append("| corpus | files | lines | findings | crashes | timeouts | LintErrors | max s | p99 s |")
    out.append("|---|---:|---:|---:|---:|---:|---|---:|---:|")
    for name, c in summary["corpora"].items():
        errors = ", ".join(f"{k}: {v}" for k, v in sorted(c["lint_errors"].items())) or "-"
        out.append(f"| {name} | {c['files']:,} | {c['lines']:,} | {c['findings']} | {c['crashes']} | "
                   f"{c['timeouts']} | {errors} | {c['max_seconds']:.2f} | {c['p99_seconds']:.3f} |")
    out.append("\n## Slowest files\n")
    out.append("| seconds | lines | file |")
    out.append("|---:|---:|---|")
    for row in summary["slowest"][:15]:
        out.append(f"| {row['seconds']:.2f} | {row['lines']} | {_short(row['path'])} |")
    if summary["crash_records"]:
        out.append("\n## Crashes and timeouts\n")
        for r in summary["crash_records"]:
            out.append(f"### {_short(r['path'])} ({r['status']}: {r['kind']})\n")
            out.append(f"{r['message']}\n")
            if r.get("traceback"):
                out.append("```\n" + r["traceback"].rstrip() + "\n```\n")
    if summary["lint_error_records"]:
        out.append("\n## LintErrors\n")
        for r in summary["lint_error_records"]:
            out.append(f"- `{_short(r['path'])}` ({r['kind']}): {r['message']}")
    if summary["all_findings"] and not mode["stress"]:
        out.append("\n## Findings\n")
        out.append("| file:line | code | message |")
        out.append("|---|---|---|")
        for f in summary["all_findings"]:
            message = f["message"].replace("|", "\\|")
            out.append(f"| {_short(f['path'])}:{f['line']} | {f['code']} | {message} |")
    return "\n".join(out) + "\n"


# --------------------------------------------------------------------------------------------------


def main(argv: Optional[Iterable[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", action="append", help="corpus name or prefix (repeatable; default all)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--budget", type=float, default=5.0, help="seconds a file may take (default 5)")
    parser.add_argument("--kill-after", type=float, default=60.0,
                        help="kill a worker after this many seconds")
    parser.add_argument("--debug", action="store_true", help="INPLACE_LINT_DEBUG=1 in the workers")
    parser.add_argument("--stress", action="store_true", help="append 'import torch' to every file")
    parser.add_argument("--out", type=Path, help="output folder")
    parser.add_argument("--limit", type=int, help="at most this many files per corpus (smoke runs)")
    parser.add_argument("--list", action="store_true", help="list corpora with files and lines, lint nothing")
    parser.add_argument("--no-fetch", action="store_true", help="skip packages not yet in benchmarks/.cache")
    args = parser.parse_args(argv)

    corpora = all_corpora(fetch=not args.no_fetch)
    if args.corpus:
        corpora = [c for c in corpora if any(c.name == w or c.name.startswith(w) for w in args.corpus)]
    tasks: List[Tuple[str, str]] = []
    info: Dict[str, dict] = {}
    lines_of: Dict[str, int] = {}
    for corpus in corpora:
        files = corpus.files()
        if args.limit:
            files = files[: args.limit]
        line_counts = {str(p): count_lines(p) for p in files}
        lines_of.update(line_counts)
        info[corpus.name] = {"files": len(files), "lines": sum(line_counts.values()), "root": corpus.note}
        tasks.extend((corpus.name, str(p)) for p in files)
        print(f"{corpus.name:14} {len(files):6} files {info[corpus.name]['lines']:9,} lines  {corpus.note}",
              file=sys.stderr)
    total_lines = sum(i["lines"] for i in info.values())
    print(f"{'total':14} {len(tasks):6} files {total_lines:9,} lines", file=sys.stderr)
    if args.list:
        return 0

    # Largest files first: the slow ones start early, so the run ends with a trickle of small files.
    tasks.sort(key=lambda t: -lines_of[t[1]])
    name = "-".join(["run"] + [k for k in ("debug", "stress") if getattr(args, k)])
    out = args.out or DEFAULT_OUT / name
    out.mkdir(parents=True, exist_ok=True)
    records: List[dict] = []
    stream = open(out / "results.jsonl", "w", encoding="utf-8")
    started = time.monotonic()

    def on_result(corpus: str, path: str, record: dict) -> None:
        record.update(corpus=corpus, path=path, lines=lines_of.get(path))
        records.append(record)
        stream.write(json.dumps(record) + "\n")
        stream.flush()
        if record["status"] in ("crash", "timeout"):
            print(f"\n{record['status'].upper()}: {path}: {record.get('message')}", file=sys.stderr)
        if len(records) % 500 == 0 or len(records) == len(tasks):
            elapsed = time.monotonic() - started
            print(f"{len(records)}/{len(tasks)} files, {elapsed:.0f} s", file=sys.stderr, flush=True)

    run_files(tasks, args.jobs, args.kill_after, args.debug, args.stress, on_result)
    stream.close()
    args.wall_seconds = time.monotonic() - started
    summary = summarize(records, info, args.budget, args)
    (out / "summary.json").write_text(json.dumps(summary, indent=1), encoding="utf-8")
    (out / "summary.md").write_text(markdown(summary), encoding="utf-8")
    print(f"\n{summary['lines']:,} lines, {summary['files']:,} files: {summary['crashes']} crashes, "
          f"{summary['timeouts']} timeouts, {len(summary['over_budget'])} over {args.budget} s, "
          f"max {summary['max_seconds']:.2f} s, p99 {summary['p99_seconds']:.3f} s, "
          f"{summary['findings']} findings, LintErrors {summary['lint_errors']}\n"
          f"report: {out / 'summary.md'}",
          file=sys.stderr)
    bad = summary["crashes"] or summary["timeouts"] or summary["over_budget"]
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
