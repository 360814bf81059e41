"""Score the linter on forum-style programs: realistic bug reports and their look-alikes, run under torch.

    python -m eval.forum_eval                 # every program in eval/forum_programs/, 2 workers
    python -m eval.forum_eval -v              # also list every miss and false positive

Each program in ``eval/forum_programs/`` (``training/``: loops, optimizers, GAN and RL steps, EMA,
hooks; ``modules/``: blocks, attention, RNNs, custom Functions, views; ``reports/``: re-creations of
real bug reports; ``lookalikes/``: clean code a naive linter would flag, and hazards behind helper
boundaries; ``heldout_training/``, ``heldout_modules/``, ``heldout_reports/`` (re-created from real
bug reports, each citing its thread) and ``heldout_dataflow/`` (the code around the hazard: helpers,
containers, hooks, closures) are the eighth landing's held-out batches; ``heldout9_reports/`` (real bug
reports, each citing its thread), ``heldout9_models/`` (architectures: residual, attention, recurrent, flow,
diffusion, detection, mixture-of-experts code) and ``heldout9_training/`` (GAN, RL, EMA, custom Functions,
hooks, two backwards) the ninth's; ``heldout10_reports/`` (real bug reports, each citing its thread),
``heldout10_models/`` (architecture code), ``heldout10_training/`` (training loops) and ``heldout10_probes/``
(one autograd fact each, across many ops and spellings) the tenth's; ``heldout11_reports/`` (real bug
reports, each citing its thread), ``heldout11_models/`` and ``heldout11_training/`` the eleventh's;
``heldout12_reports/`` (real bug reports) and ``heldout12_code/`` (model and training code) the twelfth's;
``heldout13_reports/`` (real bug reports, each citing its thread) and ``heldout13_code/`` (model and training
code) the thirteenth's) is a self-contained script.
``reports/``, ``lookalikes/`` and the ``heldout_*`` folders were written as held-out batches, scored
before any change they led to. A
program meant to raise marks the in-place line torch blames with ``# culprit``. Scoring is the hidden
evaluation's: a program that raises one of the rules' errors is found only when a finding sits on a
``# culprit`` line; a program that runs cleanly must get no finding. Torch decides, not the markers: a
program is run, then linted. Not part of the test run (about two minutes: every program imports torch).
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent / "forum_programs"
ERRORS = re.compile(
    r"has been modified by an inplace operation|a leaf Variable that requires grad|returns multiple views|"
    r"created in (?:no_grad|inference) mode and (?:is being|its base or another view of its base has been) "
    r"modified inplace"
)


def _raises(path: Path) -> bool:
    path = path.resolve()  # it runs in its own folder: a relative path would name the folder twice
    run = subprocess.run([sys.executable, str(path)], capture_output=True, text=True, timeout=120, cwd=path.parent)
    return run.returncode != 0 and ERRORS.search(run.stderr) is not None


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args(argv)
    programs = sorted(ROOT.rglob("*.py"))
    with ThreadPoolExecutor(2) as pool:
        raised = dict(zip(programs, pool.map(_raises, programs)))
    lint = subprocess.run([sys.executable, "-m", "inplace_lint", "--exit-zero", "--no-cache", "-q"]
                          + [str(p) for p in programs], capture_output=True, text=True).stdout
    flagged = {}
    for line in lint.splitlines():
        match = re.match(r"(.*?):(\d+):\d+: AGI\d{3}", line)
        if match:
            flagged.setdefault(Path(match.group(1)), set()).add(int(match.group(2)))
    counts = {"TP": 0, "FN": 0, "FP": 0, "TN": 0}
    for path in programs:
        culprits = {n for n, text in enumerate(path.read_text().splitlines(), 1) if "# culprit" in text}
        lines = flagged.get(path, set())
        verdict = ("TP" if lines & culprits else "FN") if raised[path] else ("FP" if lines else "TN")
        counts[verdict] += 1
        if args.verbose and verdict in ("FN", "FP"):
            print(f"{verdict} {path.relative_to(ROOT)}")
    precision = counts["TP"] / max(counts["TP"] + counts["FP"], 1)
    recall = counts["TP"] / max(counts["TP"] + counts["FN"], 1)
    print(f"programs {len(programs)}: TP {counts['TP']} FN {counts['FN']} FP {counts['FP']} TN {counts['TN']}; "
          f"precision {precision:.3f} recall {recall:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
