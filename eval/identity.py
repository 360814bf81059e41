"""Prove a change leaves the linter's output byte-identical: record every finding, message and fix, compare.

    python -m eval.identity record OUT.jsonl.gz [--checkout DIR] [--corpora fixtures probes ...] [-j 2]
    python -m eval.identity compare BEFORE.jsonl.gz AFTER.jsonl.gz [--limit 10]

``record`` imports ``inplace_lint`` from ``--checkout`` (default: this repository) and, through the public
API only (``lint_source``, ``fix_source``, ``LintOptions``: docs/api.md), lints every input file at two
levels, the default one and ``assume_params_are_tensors``. One JSON line per (corpus, file, level) holds
the input's sha256, every finding (its public fields and its ``to_dict()``, fix edits included) or the
LintError's message, and for ``fix_source`` with safe fixes and with unsafe fixes the sha256 of the new
text, the number of fixes applied and the findings left. ``compare`` exits 0 when two recordings agree on
every one of those, else prints the first differences of each corpus and exits 1.

Files are keyed by their path under the corpus root, and matched by content when a path moved, so two
checkouts with a different layout still compare. The generated probe programs are snapshotted into
``eval/.cache/identity/probes/`` on first use, so both sides lint the same texts even if the generator
moves. Nothing here is imported by the linter.
"""

from __future__ import annotations

import argparse
import fnmatch
import gzip
import hashlib
import importlib.util
import io
import json
import multiprocessing
import os
import random
import subprocess
import sys
import time
import tokenize
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple

from eval.realcode.precision import CACHE as REALCODE_UNPACKED

REPO = Path(__file__).resolve().parents[1]
PROBES_SNAPSHOT = REPO / "eval" / ".cache" / "identity" / "probes"
REALCODE_CACHE = REALCODE_UNPACKED  # eval/realcode/precision.py unpacks the pinned wheels there
REALCODE = {"transformers": "transformers-5.23.0", "timm": "timm-1.0.31", "torchvision": "torchvision-0.29.1"}
# corpus -> folders under the inputs root, the first that exists wins (the restructuring may move them)
FOLDERS = {
    "fixtures": ("tests/fixtures",),
    "golden": ("tests/golden_fixes",),
    "forum": ("eval/forum_programs", "scripts/forum_programs"),
    "crossunit": ("eval/heldout_crossunit",),
}
CORPORA = ("fixtures", "golden", "probes", "forum", "crossunit", "transformers", "timm", "torchvision")
LEVELS = ("default", "assume-params-are-tensors")
EVIDENCE_FIELDS = ("inplace_op", "tensor", "saving_op", "saving_line", "saving_column", "role", "argument",
                   "runtime_error")


# ---------------------------------------------------------------------------------------------- inputs

def _probe_generator() -> Path:
    for candidate in ("scripts/probe_eval.py", "eval/probe_eval.py", "eval/probes/probe_eval.py"):
        if (REPO / candidate).is_file():
            return REPO / candidate
    found = sorted(REPO.glob("**/probe_eval.py"))
    if not found:
        raise SystemExit("identity: no probe generator (probe_eval.py) found and no snapshot in "
                         f"{PROBES_SNAPSHOT}")
    return found[0]


def probe_programs(snapshot: Path) -> List[Tuple[str, str]]:
    """(key, source) of every generated probe program, from the snapshot (written on first use)."""
    index = snapshot / "programs.json"
    if not index.exists():
        generator = _probe_generator()
        saved_path = list(sys.path)
        spec = importlib.util.spec_from_file_location("_identity_probe_eval", generator)
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module  # dataclasses look their module up
        try:
            spec.loader.exec_module(module)
            programs = module.generate(random.Random(0), None)  # the set tests/test_probe_programs.py uses
        finally:
            sys.path[:] = saved_path  # the generator puts its repo first; the linter is not from it
            del sys.modules[spec.name]
        unique: Dict[str, str] = {}
        for program in programs:  # a spelling listed twice gives the same key and the same text
            key = program.key
            while key in unique and unique[key] != program.source:
                key += "#"
            unique[key] = program.source
        snapshot.mkdir(parents=True, exist_ok=True)
        tmp = index.with_suffix(".tmp")
        origin = str(generator.relative_to(REPO)) + " generate(Random(0), None)"
        tmp.write_text(json.dumps({"generator": origin, "programs": unique}, indent=0, sort_keys=True))
        os.replace(tmp, index)
    with open(index) as f:
        return sorted(json.load(f)["programs"].items())


def corpus_root(corpus: str, inputs: Path) -> Optional[Path]:
    if corpus in REALCODE:
        return REALCODE_CACHE / REALCODE[corpus]
    for folder in FOLDERS[corpus]:
        if (inputs / folder).is_dir():
            return inputs / folder
    return None


def input_tasks(corpora: Sequence[str], inputs: Path, snapshot: Path,
                patterns: Sequence[str]) -> Iterator[Tuple[str, str, Optional[str], Optional[str]]]:
    """(corpus, key, file path or None, inline text or None), sorted by key within each corpus."""
    for corpus in corpora:
        if corpus == "probes":
            items = [(key, None, source) for key, source in probe_programs(snapshot)]
        else:
            root = corpus_root(corpus, inputs)
            if root is None or not root.is_dir():
                raise SystemExit(f"identity: corpus {corpus!r} not found under {inputs} ({root})")
            items = sorted((path.relative_to(root).as_posix(), str(path), None) for path in root.rglob("*.py")
                           if path.is_file())
        for key, path, text in items:
            if patterns and not any(fnmatch.fnmatchcase(key, p) for p in patterns):
                continue
            yield corpus, key, path, text


def read_source(data: bytes) -> str:
    """Decode as Python (and the CLI) would: PEP 263 cookie, BOM; newlines kept as they are."""
    encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    return data.decode(encoding)


# ---------------------------------------------------------------------------------------------- record

_api: Any = None  # the inplace_lint module of the checkout, imported once per worker


def _load_api(checkout: str) -> None:
    global _api
    src = os.path.join(checkout, "src")  # in case the package moves to a src layout
    sys.path.insert(0, src if os.path.isdir(os.path.join(src, "inplace_lint")) else checkout)
    import inplace_lint

    where = Path(inplace_lint.__file__).resolve()
    if Path(checkout).resolve() not in where.parents:
        raise SystemExit(f"identity: inplace_lint came from {where}, not from the checkout {checkout}")
    _api = inplace_lint


def _position(position) -> List[int]:
    return [position.line, position.column]


def _finding(finding) -> Dict[str, Any]:
    fix = finding.fix
    return {
        "code": finding.code, "name": finding.name, "message": finding.message, "path": finding.path,
        "line": finding.line, "column": finding.column,
        "start": _position(finding.start), "end": _position(finding.end),
        "evidence": {name: getattr(finding.evidence, name) for name in EVIDENCE_FIELDS},
        "fix": None if fix is None else {
            "title": fix.title, "applicability": fix.applicability,
            "edits": [[_position(e.start), _position(e.end), e.replacement] for e in fix.edits],
        },
        "json": finding.to_dict(),
    }


def _guarded(call) -> Tuple[Any, Optional[Dict[str, Any]]]:
    """(result, None), or (None, the error): a LintError is expected output, anything else a crash."""
    try:
        return call(), None
    except Exception as error:  # noqa: BLE001 -- every failure is recorded, none stops the run
        if type(error).__name__ == "LintError":
            return None, {"lint_error": str(error), "line": getattr(error, "line", None),
                          "column": getattr(error, "column", None)}
        return None, {"crash": f"{type(error).__name__}: {error}"}


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def lint_one(task: Tuple[str, str, Optional[str], Optional[str]]) -> List[Dict[str, Any]]:
    corpus, key, path, text = task
    if text is None:
        with open(path, "rb") as f:
            data = f.read()
        try:
            text = read_source(data)
        except (SyntaxError, UnicodeDecodeError, LookupError) as error:
            digest = hashlib.sha256(data).hexdigest()
            return [{"corpus": corpus, "path": key, "level": level, "input_sha256": digest,
                     "undecodable": f"{type(error).__name__}: {error}"} for level in LEVELS]
    records = []
    for level in LEVELS:
        options = _api.LintOptions(assume_params_are_tensors=level != "default")
        record: Dict[str, Any] = {"corpus": corpus, "path": key, "level": level, "input_sha256": _sha(text)}
        findings, error = _guarded(lambda: _api.lint_source(text, key, options))
        record["findings"] = None if findings is None else [_finding(f) for f in findings]
        record["error"] = error
        for kind, unsafe in (("fix_safe", False), ("fix_unsafe", True)):
            fixed, error = _guarded(lambda: _api.fix_source(text, key, options, unsafe=unsafe))
            if fixed is None:
                record[kind] = {"error": error}
            else:
                remaining = [_finding(f) for f in fixed.remaining]
                record[kind] = {
                    "sha256": _sha(fixed.source), "changed": fixed.source != text, "fixed": fixed.fixed,
                    "remaining": [[f["code"], f["line"], f["column"]] for f in remaining],
                    "remaining_sha256": _sha(json.dumps(remaining, sort_keys=True)),
                }
        records.append(record)
    return records


def _git_head(checkout: Path) -> Optional[str]:
    done = subprocess.run(["git", "-C", str(checkout), "rev-parse", "HEAD"], capture_output=True, text=True)
    return done.stdout.strip() or None


def record(out: Path, checkout: Path, inputs: Path, corpora: Sequence[str], jobs: int, snapshot: Path,
           patterns: Sequence[str]) -> int:
    started = time.monotonic()
    tasks = list(input_tasks(corpora, inputs, snapshot, patterns))
    meta = {"meta": {"checkout": str(checkout), "commit": _git_head(checkout), "inputs": str(inputs),
                     "corpora": list(corpora), "levels": list(LEVELS), "python": sys.version.split()[0]}}
    counts: Dict[str, Counter] = defaultdict(Counter)
    tmp = out.with_name(out.name + ".tmp")
    out.parent.mkdir(parents=True, exist_ok=True)
    # mtime=0: the same recording gives the same bytes
    with open(tmp, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as gz:
        gz.write((json.dumps(meta, sort_keys=True) + "\n").encode())

        def write(records: Iterable[Dict[str, Any]]) -> None:
            for rec in records:
                if rec["corpus"] not in counts:  # records come in task order: a corpus begins
                    print(f"  {time.monotonic() - started:7.1f}s {rec['corpus']}", file=sys.stderr,
                          flush=True)
                c = counts[rec["corpus"]]
                c["records"] += 1
                c["files"] += rec["level"] == "default"
                c["findings " + rec["level"]] += len(rec.get("findings") or ())
                c["errors"] += bool(rec.get("error") or rec.get("undecodable"))
                line = json.dumps(rec, sort_keys=True, ensure_ascii=False) + "\n"
                gz.write(line.encode("utf-8", "surrogatepass"))

        if jobs <= 1:
            _load_api(str(checkout))
            for task in tasks:
                write(lint_one(task))
        else:
            # fork: the workers import the checkout's linter themselves; this process never imports it
            context = multiprocessing.get_context("fork" if sys.platform != "win32" else "spawn")
            with context.Pool(jobs, initializer=_load_api, initargs=(str(checkout),)) as pool:
                for records in pool.imap(lint_one, tasks, chunksize=4):
                    write(records)
    os.replace(tmp, out)
    elapsed = time.monotonic() - started
    _print_counts(counts)
    print(f"recorded {len(tasks)} files in {elapsed:.1f}s -> {out}")
    return 0


def _print_counts(counts: Dict[str, Counter]) -> None:
    print(f"{'corpus':<14}{'files':>7}{'findings':>10}{'findings (assume params)':>26}{'errors':>8}")
    for corpus in sorted(counts, key=lambda c: CORPORA.index(c) if c in CORPORA else len(CORPORA)):
        c = counts[corpus]
        print(f"{corpus:<14}{c['files']:>7}{c['findings default']:>10}"
              f"{c['findings assume-params-are-tensors']:>26}{c['errors']:>8}")


# --------------------------------------------------------------------------------------------- compare

def load(path: Path) -> Tuple[Dict[str, Any], Dict[Tuple[str, str, str], Dict[str, Any]]]:
    meta: Dict[str, Any] = {}
    records: Dict[Tuple[str, str, str], Dict[str, Any]] = {}
    with gzip.open(path, "rt", encoding="utf-8", errors="surrogatepass") as f:
        for line in f:
            rec = json.loads(line)
            if "meta" in rec:
                meta = rec["meta"]
            else:
                records[(rec["corpus"], rec["path"], rec["level"])] = rec
    return meta, records


def _short(value: Any, width: int = 160) -> str:
    text = json.dumps(value, sort_keys=True, ensure_ascii=False)
    return text if len(text) <= width else text[: width - 3] + "..."


def _field_diffs(a: Any, b: Any, where: str = "") -> Iterator[str]:
    """Each leaf where a and b differ, as 'where: A != B'."""
    if isinstance(a, dict) and isinstance(b, dict):
        for name in sorted(set(a) | set(b)):
            if a.get(name) != b.get(name):
                yield from _field_diffs(a.get(name), b.get(name), f"{where}.{name}" if where else name)
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for index, (x, y) in enumerate(zip(a, b)):
            if x != y:
                yield from _field_diffs(x, y, f"{where}[{index}]")
    else:
        if isinstance(a, list) and isinstance(b, list):
            where = f"{where} (length {len(a)} != {len(b)})"
        yield f"{where}: {_short(a)} != {_short(b)}"


def _without_key(rec: Dict[str, Any]) -> Dict[str, Any]:
    """The record's output, without what names the file (a moved file keeps its output)."""
    out = {k: v for k, v in rec.items() if k not in ("corpus", "path")}
    return json.loads(json.dumps(out).replace(json.dumps(rec["path"])[1:-1], "<path>"))


def compare(a_path: Path, b_path: Path, limit: int, corpora: Optional[Sequence[str]] = None) -> int:
    meta_a, a = load(a_path)
    meta_b, b = load(b_path)
    if corpora:  # compare a partial recording with a full one
        a = {k: v for k, v in a.items() if k[0] in corpora}
        b = {k: v for k, v in b.items() if k[0] in corpora}
    print(f"A: {a_path} (commit {meta_a.get('commit')}, checkout {meta_a.get('checkout')})")
    print(f"B: {b_path} (commit {meta_b.get('commit')}, checkout {meta_b.get('checkout')})")
    differences: Dict[str, List[str]] = defaultdict(list)
    counts: Dict[str, Counter] = defaultdict(Counter)
    only_a = {k: v for k, v in a.items() if k not in b}
    only_b = {k: v for k, v in b.items() if k not in a}
    # a file whose path changed is matched by its text (same corpus, level and input sha256)
    by_text = defaultdict(list)
    for key, rec in only_b.items():
        by_text[(key[0], key[2], rec["input_sha256"])].append(key)
    moved = Counter()
    pairs = [(key, a[key], b[key]) for key in sorted(a.keys() & b.keys())]
    for key in sorted(only_a):
        rec = only_a[key]
        candidates = by_text.get((key[0], key[2], rec["input_sha256"]))
        if candidates:
            other = candidates.pop(0)
            moved[key[0]] += 1
            pairs.append((key, _without_key(rec), _without_key(only_b.pop(other))))
        else:
            differences[key[0]].append(f"{key[1]} [{key[2]}]: only in A")
    for key in sorted(only_b):
        differences[key[0]].append(f"{key[1]} [{key[2]}]: only in B")
    for key, rec_a, rec_b in pairs:
        corpus, path, level = key
        c = counts[corpus]
        c["files"] += level == "default"
        c["findings " + level] += len(rec_a.get("findings") or ())
        if rec_a == rec_b:
            continue
        if rec_a["input_sha256"] != rec_b["input_sha256"]:
            differences[corpus].append(f"{path} [{level}]: the input text differs (not a linter difference)")
            continue
        diffs = list(_field_diffs(rec_a, rec_b))
        differences[corpus].append(f"{path} [{level}]: " + "; ".join(diffs[:3])
                                   + (f"; ... {len(diffs) - 3} more" if len(diffs) > 3 else ""))
    _print_counts(counts)
    for corpus, count in sorted(moved.items()):
        print(f"{corpus}: {count} records matched by content under a new path")
    if not differences:
        print("identical")
        return 0
    for corpus in sorted(differences):
        lines = differences[corpus]
        shown = f" (first {limit})" if len(lines) > limit else ""
        print(f"\n{corpus}: {len(lines)} differing records{shown}")
        for line in lines[:limit]:
            print("  " + line)
    return 1


# ------------------------------------------------------------------------------------------------- CLI

def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m eval.identity", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    rec = commands.add_parser("record", help="lint every input and write one record per (file, level)")
    rec.add_argument("out", type=Path)
    rec.add_argument("--checkout", type=Path, default=REPO,
                     help="import inplace_lint from here (default: this repo)")
    rec.add_argument("--inputs", type=Path, default=None,
                     help="read the repository corpora (fixtures, golden, forum, crossunit) from here "
                          "(default: the checkout)")
    rec.add_argument("--corpora", nargs="+", choices=CORPORA, default=list(CORPORA))
    rec.add_argument("--probes-snapshot", type=Path, default=PROBES_SNAPSHOT)
    rec.add_argument("--match", action="append", default=[], metavar="GLOB",
                     help="only files whose corpus-relative path matches (repeatable)")
    rec.add_argument("-j", "--jobs", type=int, default=2)
    cmp_ = commands.add_parser("compare", help="exit 0 when two recordings are identical, else list them")
    cmp_.add_argument("a", type=Path)
    cmp_.add_argument("b", type=Path)
    cmp_.add_argument("--limit", type=int, default=10, help="differences shown per corpus")
    cmp_.add_argument("--corpora", nargs="+", choices=CORPORA, help="compare only these corpora")
    args = parser.parse_args(argv)
    if args.command == "record":
        checkout = args.checkout.resolve()
        inputs = (args.inputs or checkout).resolve()
        return record(args.out, checkout, inputs, args.corpora, min(args.jobs, 2), args.probes_snapshot,
                      args.match)
    return compare(args.a, args.b, args.limit, args.corpora)


if __name__ == "__main__":
    sys.exit(main())
