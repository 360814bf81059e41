"""Check each hazard program's `# culprit` marker with torch as the judge.

For every hazard program: copy it to a temporary directory, rewrite only the marked
line out of place (rules below, or a per-program rewrite in OVERRIDES), run the copy,
and require that it now exits 0. The original must still raise (check.py checks that).

    python eval/heldout15_crossfile/verify_culprits.py [--python PATH] [-k NAME]

Rules, tried in order on the marked line:
  inplace=True        -> inplace=False              (in-place module construction)
  .inplace = True     -> .inplace = False
  max_norm=<x>        -> max_norm=None
  <x>.step()          -> pass                       (optimizer step moved out)
  a OP= b             -> a = a OP (b)
  a[idx] = v          -> _rhs = (v); a = a.clone(); a[idx] = _rhs
  a.op_(args)         -> a = a.op(args)             (a a plain name or attribute)
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check import HERE, MARKER, programs  # noqa: E402

# program name -> replacement for the marked line's code (indentation is kept)
OVERRIDES = {}
with open(os.path.join(HERE, "culprit_overrides.txt"), encoding="utf-8") as fh:
    for line in fh:
        if line.strip() and not line.startswith("#"):
            name, _, code = line.rstrip("\n").partition(" | ")
            OVERRIDES[name.strip()] = code


def rewrite(code):
    if "inplace=True" in code:
        return code.replace("inplace=True", "inplace=False")
    if re.search(r"\.inplace\s*=\s*True", code):
        return re.sub(r"\.inplace\s*=\s*True", ".inplace = False", code)
    if "max_norm=" in code:
        return re.sub(r"max_norm=[^,)]+", "max_norm=None", code)
    if re.fullmatch(r"[\w.\[\]]+\.step\(\)", code):
        return "pass"
    m = re.fullmatch(r"(.+?)\s*([+\-*/])=\s*(.+)", code)
    if m:
        return "%s = %s %s (%s)" % (m.group(1), m.group(1), m.group(2), m.group(3))
    m = re.fullmatch(r"([\w.]+)(\[.+\])\s*=\s*(.+)", code)
    if m:
        return "_rhs = (%s); %s = %s.clone(); %s%s = _rhs" % (m.group(3), m.group(1), m.group(1), m.group(1), m.group(2))
    m = re.fullmatch(r"([\w.]+)\.(\w+)_\((.*)\)", code)
    if m:
        return "%s = %s.%s(%s)" % (m.group(1), m.group(1), m.group(2), m.group(3))
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("-k", default="")
    args = ap.parse_args()
    bad = 0
    n = 0
    for name, cwd, entry, files in programs("hazard"):
        if args.k and args.k not in name:
            continue
        n += 1
        marked = []
        for f in files:
            with open(f, encoding="utf-8") as fh:
                for i, line in enumerate(fh):
                    if MARKER.search(line.rstrip("\n")):
                        marked.append((f, i))
        if len(marked) != 1:
            print("FAIL %s: %d markers" % (name, len(marked)))
            bad += 1
            continue
        f, idx = marked[0]
        with open(f, encoding="utf-8") as fh:
            lines = fh.readlines()
        line = lines[idx]
        indent = line[: len(line) - len(line.lstrip())]
        code = MARKER.sub("", line.strip()).rstrip()
        key = name.rstrip("/")
        new = OVERRIDES.get(key) or rewrite(code)
        if new is None:
            print("FAIL %s: no rewrite rule for %r" % (name, code))
            bad += 1
            continue
        tmp = tempfile.mkdtemp(prefix="culprit_")
        try:
            if name.endswith("/"):
                dst = os.path.join(tmp, key)
                shutil.copytree(cwd, dst, ignore=shutil.ignore_patterns("__pycache__"))
                target = os.path.join(dst, os.path.relpath(f, cwd))
                run_cwd = dst
            else:
                shutil.copy(f, tmp)
                target = os.path.join(tmp, os.path.basename(f))
                run_cwd = tmp
            lines[idx] = indent + new + "\n"
            with open(target, "w", encoding="utf-8") as fh:
                fh.writelines(lines)
            p = subprocess.run([args.python, entry], cwd=run_cwd, capture_output=True, text=True, timeout=300)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        ok = p.returncode == 0
        bad += not ok
        print("%-4s %-50s %s:%d  %r -> %r%s" % ("ok" if ok else "FAIL", name, os.path.relpath(f, os.path.join(HERE, "hazard")),
                                               idx + 1, code, new, "" if ok else "\n       " + (p.stderr.strip().splitlines() or [""])[-1][:200]))
        sys.stdout.flush()
    print("\n%d/%d culprit rewrites made the error go away" % (n - bad, n))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
