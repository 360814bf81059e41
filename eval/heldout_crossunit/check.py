"""Run every program of the held-out cross-unit batch and check its outcome.

hazard/ programs must fail with one of the four autograd in-place errors (and carry exactly one
`# culprit` marker); clean/ programs must exit 0.  Standard library only.

    python eval/heldout_crossunit/check.py [--python PATH] [-k SUBSTRING]
"""
import argparse
import os
import resource
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ERRORS = {
    "version": "one of the variables needed for gradient computation has been modified by an inplace operation",
    "leaf": "leaf Variable that requires grad is being used in an in-place operation",
    "multi-output view": "is a view and is being modified inplace. This view is the output of a function that returns multiple views",
    "no_grad view": "A view was created in no_grad mode and is being modified inplace with grad mode enabled",
}


def programs(group):
    root = os.path.join(HERE, group)
    out = []
    for name in sorted(os.listdir(root)):
        path = os.path.join(root, name)
        if name.endswith(".py") and os.path.isfile(path):
            out.append((name, root, name, [path]))
        elif os.path.isdir(path) and os.path.isfile(os.path.join(path, "main.py")):
            files = [os.path.join(r, f) for r, _, fs in os.walk(path) for f in fs if f.endswith(".py")]
            out.append((name + "/", path, "main.py", files))
    return out


def culprits(files):
    hits = []
    for f in files:
        with open(f, encoding="utf-8") as fh:
            for i, line in enumerate(fh, 1):
                if "# culprit" in line:
                    hits.append(f"{os.path.relpath(f, HERE)}:{i}")
    return hits


def _child_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run(python, cwd, entry, timeout, args=()):
    """Return (returncode, stderr, wall seconds, CPU seconds of the child)."""
    t0, c0 = time.time(), _child_cpu()
    try:
        p = subprocess.run([python, entry, *args], cwd=cwd, capture_output=True, text=True, timeout=timeout)
        rc, err = p.returncode, p.stderr
    except subprocess.TimeoutExpired:
        rc, err = None, "timeout"
    return rc, err, time.time() - t0, _child_cpu() - c0


def classify(err):
    for kind, msg in ERRORS.items():
        if msg in err:
            return kind
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("-k", default="", help="only programs whose name contains this")
    ap.add_argument("--timeout", type=float, default=60.0)
    args = ap.parse_args()
    passed = failed = slow = 0
    counts = {}
    # Run time is dominated by `import torch` and by the one-time import that the first optimizer
    # construction triggers, and wall time on a loaded shared machine says little; a program counts
    # as slow only if its CPU time exceeds that baseline's CPU time by more than 5 s.
    _, _, base_wall, base = run(args.python, HERE, "-c", args.timeout,
                                ["import torch; torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=0.1)"])
    print(f"baseline: import torch + first optimizer: {base_wall:.1f}s wall, {base:.1f}s CPU")
    for group in ("hazard", "clean"):
        for name, cwd, entry, files in programs(group):
            if args.k not in name:
                continue
            rc, err, dt, cpu = run(args.python, cwd, entry, args.timeout)
            kind = classify(err)
            marks = culprits(files)
            if group == "hazard":
                ok = rc not in (0, None) and kind is not None and len(marks) == 1
                detail = f"{kind or 'NO EXPECTED ERROR'}; culprit {marks[0] if len(marks) == 1 else marks}"
            else:
                ok = rc == 0 and not marks
                detail = "exit 0" if rc == 0 else f"rc={rc}: {err.strip().splitlines()[-1] if err.strip() else ''}"
            if cpu - base > 5.0:
                slow += 1
                detail += f" (SLOW {cpu:.1f}s CPU)"
            counts[(group, ok)] = counts.get((group, ok), 0) + 1
            if ok:
                passed += 1
            else:
                failed += 1
            print(f"{'PASS' if ok else 'FAIL'}  {group}/{name:<48} {detail}  [{dt:.1f}s wall, {cpu:.1f}s CPU]", flush=True)
    for group in ("hazard", "clean"):
        good, bad = counts.get((group, True), 0), counts.get((group, False), 0)
        what = "raised an expected error" if group == "hazard" else "exited 0"
        print(f"{group}: {good}/{good + bad} {what}")
    if slow:
        print(f"{slow} program(s) used more than 5 s of CPU beyond the import baseline")
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
