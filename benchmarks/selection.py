"""Does the selection (inplace_lint/syntax/select.py) still pay for itself?

    python -m benchmarks.selection [--repeat 5] [--every N] DIR [DIR ...]

Lints the same files with the selection on (A: the reduced text, its first look, LibCST on what is kept)
and off (B: the first look on the whole text's ``ast`` tree, LibCST on the whole text when it finds a
hazard), file by file, A and B alternated in one loop (A B on even repetitions, B A on odd ones, so that
neither always runs on a warm cache). Prints, per folder and mode, the CPU seconds of one pass over the
folder (min and median over the repetitions) and how many files LibCST parsed; checks that both modes
report the same findings. ``--every N`` lints every Nth file only (a subset on a slow machine).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Dict, List, Tuple

from inplace_lint import LintError
from inplace_lint.engine import core

MODES = (("on", True), ("off", False))


def _files(folder: Path, every: int) -> List[Tuple[str, str]]:
    out = []
    for index, path in enumerate(sorted(folder.rglob("*.py"))):
        if index % every:
            continue
        try:
            out.append((str(path), path.read_text(encoding="utf-8")))
        except (UnicodeDecodeError, OSError):
            continue
    return out


def _lint(source: str, path: str, selection: bool):
    try:
        findings = core.lint_with_tree(source, None, path, selection=selection)
        return [(f.code, f.start, f.message) for f in findings]
    except LintError as error:
        return str(error)


def measure(files: List[Tuple[str, str]], repeat: int) -> Dict[str, dict]:
    parses = {"count": 0}
    real_parse = core.parse

    def counted(text):
        parses["count"] += 1
        return real_parse(text)

    core.parse = counted
    try:
        for path, source in files[:20]:  # warm up: the knowledge, the caches of node fields
            for _name, flag in MODES:
                _lint(source, path, flag)
        totals: Dict[str, List[float]] = {name: [] for name, _ in MODES}
        parsed: Dict[str, int] = {}
        mismatches = 0
        clock = time.process_time
        for rep in range(repeat):
            spent = {name: 0.0 for name, _ in MODES}
            counts = {name: 0 for name, _ in MODES}
            order = MODES if rep % 2 == 0 else MODES[::-1]
            for path, source in files:
                results = {}
                for name, flag in order:
                    before = parses["count"]
                    start = clock()
                    results[name] = _lint(source, path, flag)
                    spent[name] += clock() - start
                    counts[name] += parses["count"] - before
                if rep == 0 and results["on"] != results["off"]:
                    mismatches += 1
            for name in spent:
                totals[name].append(spent[name])
            parsed = counts
        return {name: {"min": min(values), "median": statistics.median(values), "parsed": parsed[name],
                       "runs": values, "mismatches": mismatches}
                for name, values in totals.items()}
    finally:
        core.parse = real_parse


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folders", nargs="+", type=Path)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--every", type=int, default=1)
    args = parser.parse_args(argv)
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    print("| corpus | files | MB | selection on: min / median CPU s | off: min / median CPU s "
          "| off / on (median) | LibCST parses on / off | findings differ |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for folder in args.folders:
        files = _files(folder, args.every)
        megabytes = sum(len(source) for _path, source in files) / 1e6
        result = measure(files, args.repeat)
        on, off = result["on"], result["off"]
        print(f"| {folder.name} | {len(files)} | {megabytes:.1f} | {on['min']:.2f} / {on['median']:.2f} "
              f"| {off['min']:.2f} / {off['median']:.2f} | {off['median'] / on['median']:.2f}x "
              f"| {on['parsed']} / {off['parsed']} | {on['mismatches']} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
