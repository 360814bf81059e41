"""Real-code precision: lint pinned PyTorch libraries and score every finding against reviewed verdicts.

    python -m eval.realcode.precision                 # the reviewed libraries (downloads on first use)
    python -m eval.realcode.precision --fresh         # the libraries picked fresh on 2026-12-03
    python -m eval.realcode.precision --fresh-1204    # ... and those picked on 2026-12-04
    python -m eval.realcode.precision --held-out      # the libraries kept out of tuning: run them only
                                                      # for a final measurement, then review each finding
    python -m eval.realcode.precision kornia monai    # some libraries only
    python -m eval.realcode.precision --json OUT.json # also write every finding with its verdict

Each library is fetched at a pinned version with ``pip download --no-deps`` (a wheel) and its ``.py``
files unpacked under ``eval/.cache/realcode/<name>-<version>/``; the linter runs on that folder as a user
would (the installed ``inplace-lint`` command, JSON output, no cache). A finding is matched to
``verdicts.csv`` by (library, version, path relative to the unpacked wheel, line, code):

``REAL``        a hazard confirmed with a runnable reproduction
``FP``          a false positive, with the pattern that explains it
``UNSURE``      reviewed, neither proven nor refuted
``unreviewed``  not in the file: someone must review it (a repro for REAL, a named pattern for FP)

The table gives, per library, its lines of Python, the findings by verdict, and false positives per 100k
lines (the issue's bar is 0.5); then every REAL verdict the run no longer reports (a recall loss), and the
unreviewed findings to review. transformers, timm and torchvision were reviewed on a sample only, so
their unreviewed findings are expected. Nothing here imports or runs the linted code.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import subprocess
import sys
import zipfile
from collections import Counter
from pathlib import Path
from typing import Dict, List, Tuple

HERE = Path(__file__).resolve().parent
CACHE = Path(os.environ.get("INPLACE_LINT_REALCODE_CACHE", HERE.parent / ".cache" / "realcode"))
VERDICTS = HERE / "verdicts.csv"

# (library as the verdict file names it, PyPI distribution, version)
REVIEWED: List[Tuple[str, str, str]] = [
    ("diffusers", "diffusers", "0.42.1"),
    ("torchaudio", "torchaudio", "2.11.1"),
    ("kornia", "kornia", "0.9.0"),
    ("monai", "monai", "1.6.1"),
    ("ultralytics", "ultralytics", "8.4.190"),
    ("accelerate", "accelerate", "1.16.0"),
    ("torch_geometric", "torch-geometric", "2.8.1"),
    ("speechbrain", "speechbrain", "1.1.2"),
    ("torchrl", "torchrl", "0.14.1"),
    ("einops", "einops", "0.8.2"),
    ("peft", "peft", "0.21.2"),
    ("stable_baselines3", "stable-baselines3", "2.9.2"),
    # reviewed on a random sample of their findings only
    ("transformers", "transformers", "5.23.0"),
    ("timm", "timm", "1.0.31"),
    ("torchvision", "torchvision", "0.29.1"),
]
# Kept out of all tuning: never lint these while changing the analysis; measure once at the end.
HELD_OUT: List[Tuple[str, str, str]] = [
    ("gpytorch", "gpytorch", "1.15.2"),
    ("pyro", "pyro-ppl", "1.9.2"),
    ("torchmetrics", "torchmetrics", "1.9.0"),
    ("segmentation_models_pytorch", "segmentation-models-pytorch", "0.6.0"),
    ("open_clip", "open-clip-torch", "3.3.0"),
    ("botorch", "botorch", "0.18.1"),
]
# Picked on 2026-12-03 and never linted before the measurement of that day (issue 29's "at least four
# more, not looked at before the final measurement"); once reviewed they are seen, like HELD_OUT
FRESH: List[Tuple[str, str, str]] = [
    ("captum", "captum", "0.9.0"),
    ("opacus", "opacus", "1.6.0"),
    ("pytorch_lightning", "pytorch-lightning", "2.6.6"),
    ("pytorch_forecasting", "pytorch-forecasting", "1.8.0"),
    ("pytorch_metric_learning", "pytorch-metric-learning", "2.9.0"),
    ("e3nn", "e3nn", "0.6.0"),
]
# Picked on 2026-12-04, never linted before that day's final measurement (issue 29 again: the twelve's
# tuning must not have seen them); reviewed once, then seen like the rest
FRESH_1204: List[Tuple[str, str, str]] = [
    ("torchio", "torchio", "1.2.1"),
    ("pytorch_ignite", "pytorch-ignite", "0.5.5"),
    ("pykeen", "pykeen", "1.11.1"),
    ("sentence_transformers", "sentence-transformers", "6.2.0"),
    ("torchtune", "torchtune", "0.6.1"),
    ("lightly", "lightly", "1.6.0"),
]
SAMPLED = {"transformers", "timm", "torchvision"}
VERDICT_KINDS = ("REAL", "FP", "UNSURE", "unreviewed")


def fetch(dist: str, version: str) -> Path:
    """The unpacked ``.py`` files of one pinned wheel (downloaded on first use)."""
    target = CACHE / f"{dist}-{version}"
    marker = target / ".unpacked"
    if marker.exists():
        return target
    downloads = CACHE / "_downloads"
    downloads.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:", "--quiet",
         "-d", str(downloads), f"{dist}=={version}"],
        check=True,
    )
    prefix = dist.replace("-", "_").lower() + "-" + version + "-"
    wheels = [p for p in downloads.iterdir() if p.name.lower().startswith(prefix) and p.suffix == ".whl"]
    if not wheels:
        raise RuntimeError(f"pip downloaded no wheel for {dist}=={version}")
    target.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(wheels[0]) as wheel:
        for member in wheel.namelist():
            if member.endswith(".py") and ".dist-info/" not in member:
                wheel.extract(member, target)
    marker.write_text(f"{dist}=={version}\n")
    return target


def python_lines(root: Path) -> int:
    total = 0
    for path in root.rglob("*.py"):
        with open(path, "rb") as f:
            total += sum(1 for _ in f)
    return total


def lint(root: Path, jobs: int) -> List[dict]:
    """Every finding of the installed linter on ``root``, paths relative to it."""
    command = [sys.executable, "-m", "inplace_lint", "check", "--output-format", "json", "--no-cache",
               "-j", str(jobs), "."]
    done = subprocess.run(command, cwd=root, capture_output=True, text=True)
    if done.returncode not in (0, 1):
        raise RuntimeError(f"inplace-lint failed on {root} (exit {done.returncode}):\n{done.stderr}")
    findings = json.loads(done.stdout or "[]")
    for finding in findings:
        name = finding["filename"]
        name = os.path.relpath(name, root) if os.path.isabs(name) else os.path.normpath(name)
        finding["filename"] = name.replace(os.sep, "/")
    return findings


def load_verdicts() -> Dict[Tuple[str, str, str, int, str], Tuple[str, str]]:
    with open(VERDICTS, newline="") as f:
        return {
            (row["corpus"], row["version"], row["path"], int(row["line"]), row["code"]): (row["verdict"], row["reason"])
            for row in csv.DictReader(f)
        }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m eval.realcode.precision", description=__doc__.split("\n")[0])
    parser.add_argument("libraries", nargs="*", help="library names (default: every reviewed one)")
    parser.add_argument("--held-out", action="store_true", help="the held-out libraries instead")
    parser.add_argument("--fresh", action="store_true", help="the libraries picked fresh on 2026-12-03")
    parser.add_argument("--fresh-1204", action="store_true", help="the libraries picked fresh on 2026-12-04")
    parser.add_argument("-j", "--jobs", type=int, default=2)
    parser.add_argument("--json", type=Path, help="write every finding with its verdict here")
    args = parser.parse_args(argv)

    pool = FRESH if args.fresh else FRESH_1204 if args.fresh_1204 else HELD_OUT if args.held_out else REVIEWED
    chosen = [entry for entry in pool if not args.libraries or entry[0] in args.libraries]
    verdicts = load_verdicts()
    rows, records, lost = [], [], []
    total_lines, total = 0, Counter()
    for library, dist, version in chosen:
        root = fetch(dist, version)
        lines = python_lines(root)
        counts = Counter()
        seen = set()
        for finding in lint(root, args.jobs):
            key = (library, version, finding["filename"], finding["location"]["row"], finding["code"])
            verdict, reason = verdicts.get(key, ("unreviewed", ""))
            counts[verdict] += 1
            seen.add(key)
            records.append({"library": library, "version": version, "path": key[2], "line": key[3],
                            "code": key[4], "verdict": verdict, "reason": reason,
                            "message": finding["message"]})
        lost += [key for key, (verdict, _) in verdicts.items()
                 if key[0] == library and key[1] == version and verdict == "REAL" and key not in seen]
        total_lines += lines
        total.update(counts)
        rows.append((library + (" (sampled)" if library in SAMPLED else ""), version, lines, counts))

    print(f"{'library':32} {'version':9} {'lines':>9} " + " ".join(f"{k:>10}" for k in VERDICT_KINDS)
          + f" {'FP/100k':>8}")
    for name, version, lines, counts in rows + [("all", "", total_lines, total)]:
        per_100k = 100_000 * counts["FP"] / lines if lines else 0.0
        print(f"{name:32} {version:9} {lines:>9,} " + " ".join(f"{counts[k]:>10}" for k in VERDICT_KINDS)
              + f" {per_100k:>8.2f}")
    if lost:
        print("\nREAL verdicts no longer reported (recall lost):")
        for key in lost:
            print("  {0} {1} {2}:{3} {4}".format(*key))
    unreviewed = [r for r in records if r["verdict"] == "unreviewed" and r["library"] not in SAMPLED]
    if unreviewed:
        print("\nUnreviewed findings (review each: a repro for REAL, a named pattern for FP):")
        for r in unreviewed:
            print(f"  {r['library']} {r['path']}:{r['line']} {r['code']} {r['message'][:120]}")
    if args.json:
        args.json.write_text(json.dumps(records, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
