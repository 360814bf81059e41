"""Run every program of this batch with torch as the judge.

hazard/ programs must fail with one of torch's in-place errors and carry exactly one
`# culprit` marker; clean/ programs must exit 0 and carry none. Standard library only
(plus the torch the programs import); the linter is not involved.

    python eval/heldout15_crossfile/check.py [--python PATH] [-k NAME] [--timeout S]
"""
import argparse
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))

ERRORS = {  # checked in this order; the last is the generic view+inplace message
    "version": "one of the variables needed for gradient computation has been modified by an inplace operation",
    "leaf": "a leaf Variable that requires grad is being used in an in-place operation",
    "multi-output view": "returns multiple views",
    "no_grad view": "created in no_grad mode and is being modified inplace",
    "view": "is a view and is being modified inplace",
}
MARKER = re.compile(r"#\s*culprit\s*$")


def programs(kind):
    root = os.path.join(HERE, kind)
    for name in sorted(os.listdir(root)):
        path = os.path.join(root, name)
        if name.endswith(".py") and os.path.isfile(path):
            yield name, root, name, [path]
        elif os.path.isdir(path) and os.path.isfile(os.path.join(path, "main.py")):
            files = []
            for dirpath, dirnames, filenames in os.walk(path):
                dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
                files += [os.path.join(dirpath, f) for f in sorted(filenames) if f.endswith(".py")]
            yield name + "/", path, "main.py", files


def markers(files):
    found = []
    for f in files:
        with open(f, encoding="utf-8") as fh:
            for i, line in enumerate(fh, 1):
                if MARKER.search(line.rstrip("\n")):
                    found.append("%s:%d" % (os.path.relpath(f, HERE), i))
    return found


def header_ok(path):
    with open(path, encoding="utf-8") as fh:
        head = fh.read(4000)
    return "# Source:" in head and "# Unit kind:" in head


def run(python, cwd, entry, timeout):
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    t0 = time.time()
    c0 = os.times()
    try:
        p = subprocess.run([python, entry], cwd=cwd, capture_output=True, text=True, timeout=timeout, env=env)
        rc, err = p.returncode, p.stderr
    except subprocess.TimeoutExpired:
        rc, err = None, "timeout"
    c1 = os.times()
    return rc, err, time.time() - t0, (c1.children_user - c0.children_user) + (c1.children_system - c0.children_system)


def classify(stderr):
    tail = stderr.strip().splitlines()[-1] if stderr.strip() else ""
    if not tail.startswith("RuntimeError"):
        return None
    for kind, text in ERRORS.items():
        if text in tail:
            return kind
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("-k", default="")
    ap.add_argument("--timeout", type=float, default=300)
    args = ap.parse_args()

    failed, counts = [], {"hazard": [0, 0], "clean": [0, 0]}
    for kind in ("hazard", "clean"):
        for name, cwd, entry, files in programs(kind):
            label = "%s/%s" % (kind, name)
            if args.k and args.k not in label:
                continue
            counts[kind][1] += 1
            rc, err, wall, cpu = run(args.python, cwd, entry, args.timeout)
            marks = markers(files)
            problems = []
            if not header_ok(os.path.join(cwd, entry)):
                problems.append("missing # Source:/# Unit kind: header")
            if kind == "hazard":
                got = classify(err) if rc not in (0, None) else None
                if got is None:
                    problems.append("expected an in-place error, got rc=%s: %s" % (rc, (err.strip().splitlines() or [""])[-1][:160]))
                if len(marks) != 1:
                    problems.append("expected exactly one # culprit marker, found %d" % len(marks))
                outcome = "raised (%s)" % got if got else "rc=%s" % rc
            else:
                if rc != 0:
                    problems.append("expected exit 0, got rc=%s: %s" % (rc, (err.strip().splitlines() or [""])[-1][:160]))
                if marks:
                    problems.append("clean program carries a # culprit marker: %s" % ", ".join(marks))
                outcome = "exit %s" % rc
            status = "FAIL" if problems else "ok"
            if not problems:
                counts[kind][0] += 1
            else:
                failed.append(label)
            print("%-4s %-58s %-26s %5.1fs wall %5.1fs cpu %s" % (status, label, outcome, wall, cpu,
                                                                ("culprit " + marks[0]) if kind == "hazard" and len(marks) == 1 else ""))
            for p in problems:
                print("       " + p)
            sys.stdout.flush()
    print()
    print("hazard: %d/%d raised an expected error" % tuple(counts["hazard"]))
    print("clean: %d/%d exited 0" % tuple(counts["clean"]))
    total = counts["hazard"][1] + counts["clean"][1]
    print("%d passed, %d failed" % (total - len(failed), len(failed)))
    for f in failed:
        print("  failed: " + f)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
