"""Score the linter on a held-out batch of runnable programs: torch decides, the linter is scored.

    python -m eval.score_batch eval/heldout_crossunit            # run every program, then lint and score
    python -m eval.score_batch eval/heldout_crossunit -v         # also list every miss and false positive
    python -m eval.score_batch DIR --outcomes FILE.json          # reuse (or write) the programs' run outcomes

A batch folder holds ``hazard/`` and ``clean/`` entries. An entry is one program file ``NNN_name.py`` or a
folder ``NNN_name/`` whose entry point is ``main.py`` (its other modules are imported from beside it).
Each program is run under torch in its own folder; then the linter (the installed command, JSON output,
no cache) checks the file or the whole folder. Scoring is the hidden evaluation's: a program that raises
one of the rules' errors counts as found only when a finding sits on a line marked ``# culprit`` (in any
of its files); a program that runs cleanly must get no finding at all. The folder an entry sits in is the
author's intent; where torch disagrees, torch wins and the disagreement is listed.

Run outcomes do not depend on the linter: ``--outcomes`` keeps them, so re-scoring after a change to the
linter only lints. Nothing here is imported by the linter.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, Set, Tuple

from eval.forum_eval import ERRORS  # torch's four in-place errors, as the forum programs are scored

CULPRIT = re.compile(r"#.*\bculprit\b")


def entries(batch: Path) -> List[Path]:
    found = []
    for kind in ("hazard", "clean"):
        folder = batch / kind
        if folder.is_dir():
            found += sorted(p for p in folder.iterdir()
                            if (p.is_file() and p.suffix == ".py") or (p.is_dir() and (p / "main.py").exists()))
    return found


def _files(entry: Path) -> List[Path]:
    return sorted(entry.rglob("*.py")) if entry.is_dir() else [entry]


def raises(entry: Path, timeout: float = 300) -> bool:
    script = entry / "main.py" if entry.is_dir() else entry
    try:
        run = subprocess.run([sys.executable, script.name], cwd=script.parent, capture_output=True, text=True,
                             timeout=timeout)
    except subprocess.TimeoutExpired:
        return False
    return run.returncode != 0 and ERRORS.search(run.stderr) is not None


def culprits(entry: Path) -> Set[Tuple[str, int]]:
    marks = set()
    for path in _files(entry):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if CULPRIT.search(line):
                marks.add((str(path.resolve()), number))
    return marks


def findings(entry: Path) -> Set[Tuple[str, int]]:
    target = entry.resolve()
    done = subprocess.run([sys.executable, "-m", "inplace_lint", "check", "--output-format", "json", "--no-cache",
                           "-j", "1", str(target)], capture_output=True, text=True)
    if done.returncode not in (0, 1):
        raise RuntimeError(f"inplace-lint failed on {entry}: {done.stderr.strip()}")
    return {(os.path.realpath(f["filename"]), f["location"]["row"]) for f in json.loads(done.stdout or "[]")}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m eval.score_batch", description=__doc__.split("\n")[0])
    parser.add_argument("batch", type=Path)
    parser.add_argument("--outcomes", type=Path, help="a JSON file of run outcomes to reuse or write")
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args(argv)

    outcomes: Dict[str, bool] = {}
    if args.outcomes and args.outcomes.exists():
        outcomes = json.loads(args.outcomes.read_text())
    counts = {"TP": 0, "FN": 0, "FP": 0, "TN": 0}
    listed: List[str] = []
    for entry in entries(args.batch):
        key = str(entry.relative_to(args.batch))
        if key not in outcomes:
            outcomes[key] = raises(entry)
        raised = outcomes[key]
        intended = entry.parent.name == "hazard"
        if raised != intended:
            listed.append(f"torch disagrees with the folder: {key} ({'raises' if raised else 'runs cleanly'})")
        found = findings(entry)
        if raised:
            hit = bool(found & culprits(entry))
            counts["TP" if hit else "FN"] += 1
            if not hit:
                listed.append(f"FN {key}")
        else:
            counts["FP" if found else "TN"] += 1
            if found:
                listed.append(f"FP {key}: {sorted(found)}")
    if args.outcomes:
        args.outcomes.write_text(json.dumps(outcomes, indent=1, sort_keys=True) + "\n")
    tp, fn, fp = counts["TP"], counts["FN"], counts["FP"]
    precision = tp / (tp + fp) if tp + fp else 1.0
    recall = tp / (tp + fn) if tp + fn else 1.0
    print(f"{args.batch}: TP {tp}, FN {fn}, FP {fp}, TN {counts['TN']} "
          f"(precision {precision:.3f}, recall {recall:.3f})")
    if args.verbose:
        print("\n".join(listed))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
