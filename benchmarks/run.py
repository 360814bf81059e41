"""The speed benchmark (issue 26): every compared command alternated in one loop, min and median.

    python -m benchmarks.run [--corpora transformers,timm,torchvision] [--every N] [--repeat N]
                             [--corpus-root DIR] [--baseline-checkout DIR] [--out benchmarks/RESULTS.md]
                             [--skip-flake8] [--skip-torchfix] [--skip-lsp] [--skip-baseline-flake8]

Method (why each choice: the figures it replaces were off by up to 2.4x):

* **One loop, alternated.** On each corpus every compared command runs once per round, in a fixed order
  (A B C ... A B C ...), for ``--repeat`` rounds (3). A ratio is computed pair by pair within a round
  (round r's CLI over round r's ``ast.parse``) and reported as the min and the median over rounds; so is
  every absolute figure. The machine's speed drifts within minutes on a shared machine: commands timed
  minutes apart, or a yardstick timed once, do not compare.
* **CPU time of whole processes**: ``getrusage(RUSAGE_CHILDREN)`` around each command (user + system, the
  command and every process it waited for), start-up included, for every tool alike, the yardstick too.
* **The yardstick** is ``benchmarks/ast_yardstick.py``: a process of its own that reads and
  ``ast.parse``-es the same file list (the floor for any linter written in Python).
* **The same files for every tool.** TorchFix runs at tens of CPU-seconds per MB, so it runs on one subset
  of each corpus (every ``TORCHFIX_EVERY[corpus]``-th file); its row times the yardstick, our CLI and
  TorchFix on exactly that subset, in the same loop.
* **flake8 plugin cost from real flake8 runs**, each tool installed in its own environment under
  ``benchmarks/.cache``: flake8 alone, flake8 + inplace-lint (installed from this checkout, not editable),
  flake8 + flake8-bugbear, the same pinned flake8 in each; the same command line in each
  (``flake8 --isolated -j 1 --select=F,AGI,B``: pycodestyle and pyflakes run in all of them, as flake8
  runs every installed plugin and selection only filters what it reports). A plugin's added CPU is its
  run minus flake8 alone in the same round.
* **Our CLI as users run it**: ``inplace-lint check -j 1 --no-cache`` from that same environment (its
  console script; bytecode compiled by ``pip install``), with an empty config and no exclusions.
* **A baseline** (``--baseline-checkout DIR``, another checkout of inplace-lint, never written to): its
  package files are copied to ``benchmarks/.cache/baseline-source`` and installed from there exactly as
  this checkout is (own environment, same pinned flake8, not editable), so the two differ only in their
  code (``PYTHONPATH=DIR``, its bytecode cached elsewhere, read the same commit as new / baseline
  0.74x-0.91x in alternated runs here: a comparison of start-up mechanisms, not of code).
  Its CLI and its flake8 plugin run in the same loop; reported as new / baseline per corpus.
* **Start-up**: ``inplace-lint check`` on one small file, many rounds, alternated with ``python -c pass``.
* **Language server**: the real ``inplace-lint lsp`` over stdio, a raw JSON-RPC client; on real library
  files (torchvision's ``transforms/v2/functional/_geometry.py``, 3,041 lines) and on a synthetic
  3,000-line file: first open (``didOpen`` sent -> its ``publishDiagnostics``), then single-line edits
  0.3 s apart, alternating between a function no finding depends on and a function with a finding
  (``" + 0"`` appended to a one-line ``return``, the next edit there undoing it); one server per round.
* Before each loop every command runs once on a few files, untimed (page cache, bytecode). The load
  average and the cores are recorded before and after.

The corpora are the real-code corpora the accuracy work uses (``eval/realcode``: transformers 5.23.0,
timm 1.0.31, torchvision 0.29.1), unpacked under ``--corpus-root`` (default
``$INPLACE_LINT_REALCODE_CACHE``, else ``eval/.cache/realcode``; ``python -m eval.realcode.precision``
downloads them); a corpus not found there is fetched by ``benchmarks/corpus.py`` (older pinned versions:
the report names the folder used). Not part of the test suite: nothing in the tests times anything.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Sequence, Tuple

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / "benchmarks" / ".cache"
PYTHON = sys.executable
FLAKE8 = "flake8==7.5.0"
BUGBEAR = "flake8-bugbear==26.10.27"
TORCHFIX = "torchfix==0.7.0"
TORCHFIX_EVERY = {"transformers": 40, "timm": 10, "torchvision": 10}  # its subset of each corpus
# the corpora of eval/realcode/precision.py, as unpacked there
REALCODE = {"transformers": "transformers-5.23.0", "timm": "timm-1.0.31", "torchvision": "torchvision-0.29.1"}
LSP_REAL_FILES = [("torchvision", "torchvision/transforms/v2/functional/_geometry.py")]
FLAKE8_SELECT = "--select=F,AGI,B"

# Goals of issue 26
GOAL_CLI_OVER_AST = 3.0
GOAL_PLUGIN_OVER_BUGBEAR = 0.5
GOAL_STARTUP_CPU = 0.1
GOAL_LSP_NO_FINDING_MS = 50.0
GOAL_LSP_FINDING_MS = 100.0
GOAL_LSP_OPEN_MS = 400.0


# --- pure parts (tests/test_benchmarks.py) -------------------------------------------------------------

def schedule(names: Sequence[str], repeat: int) -> List[Tuple[int, str]]:
    """(round, command) in the order they run: every command once per round, A B C A B C ..."""
    return [(r, name) for r in range(max(1, repeat)) for name in names]


def min_median(values: Iterable[float]) -> Tuple[float, float]:
    values = [v for v in values if v == v]  # a nan (a round without a figure) is left out
    if not values:
        return float("nan"), float("nan")
    return min(values), statistics.median(values)


def paired_ratios(numerator: Sequence[float], denominator: Sequence[float]) -> List[float]:
    """Round r's numerator over round r's denominator, for every round both have."""
    return [n / d if d > 0 else float("nan") for n, d in zip(numerator, denominator)]


def paired_added(with_plugin: Sequence[float], alone: Sequence[float]) -> List[float]:
    """What a plugin adds in each round: the run with it minus flake8 alone in the same round."""
    return [w - a for w, a in zip(with_plugin, alone)]


def verdict(value: float, goal: float) -> str:
    if value != value:  # nan: not measured
        return "not measured"
    return "met" if value <= goal else "not met"


# --- running commands -----------------------------------------------------------------------------------

def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


class Command:
    """One compared command: what it runs, and the CPU and wall seconds of each round."""

    def __init__(self, name: str, argv: List[str], env: Optional[dict] = None, cwd: Optional[Path] = None,
                 warmup: Optional[List[str]] = None):
        self.name = name
        self.argv = argv
        self.env = env
        self.cwd = cwd
        self.warmup = warmup  # the same command on a few files: run once, untimed, before the loop
        self.cpu: List[float] = []
        self.wall: List[float] = []


def run_measured(argv: List[str], env: Optional[dict] = None,
                 cwd: Optional[Path] = None) -> Tuple[float, float]:
    """(CPU seconds of the command and every process it waited for, wall seconds)."""
    before = _children_cpu()
    start = time.perf_counter()
    done = subprocess.run(argv, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wall = time.perf_counter() - start
    cpu = _children_cpu() - before
    if done.returncode not in (0, 1):
        raise RuntimeError(f"{' '.join(argv[:8])} ... exited {done.returncode}: "
                           f"{done.stderr.decode(errors='replace')[-2000:]}")
    return cpu, wall


def run_loop(commands: List[Command], repeat: int, label: str) -> None:
    """Every command once per round, alternated (``schedule``), after one untimed warm-up each."""
    for command in commands:
        if command.warmup is not None:
            run_measured(command.warmup, command.env, command.cwd)
    for round_, name in schedule([c.name for c in commands], repeat):
        command = next(c for c in commands if c.name == name)
        cpu, wall = run_measured(command.argv, command.env, command.cwd)
        command.cpu.append(cpu)
        command.wall.append(wall)
        print(f"[{label}] round {round_ + 1}/{repeat} {name}: {cpu:.2f} CPU-s, {wall:.2f} s wall",
              file=sys.stderr, flush=True)


def base_env() -> dict:
    return {k: v for k, v in os.environ.items()
            if k not in ("PYTHONPATH", "INPLACE_LINT_DEBUG", "PYTHONPYCACHEPREFIX",
                         "PYTHONDONTWRITEBYTECODE")}


def load() -> Dict[str, object]:
    one, five, fifteen = os.getloadavg()
    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:
        usable = os.cpu_count() or 1
    return {"load1": one, "load5": five, "load15": fifteen, "cores": os.cpu_count() or 1, "usable": usable,
            "time": time.strftime("%H:%M:%S", time.gmtime())}


# --- environments ---------------------------------------------------------------------------------------

def _venv(name: str, packages: List[str], reinstall: Optional[List[str]] = None) -> Path:
    """An environment under benchmarks/.cache, created once with ``packages`` (again when they change);
    ``reinstall`` is reinstalled (no dependencies) on every call."""
    venv = CACHE / name
    pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "-q", "--disable-pip-version-check"]
    marker = venv / ".benchmark-ready"
    if not marker.exists() or marker.read_text(encoding="utf-8") != "\n".join(packages):
        shutil.rmtree(venv, ignore_errors=True)
        subprocess.run([PYTHON, "-m", "venv", str(venv)], check=True)
        subprocess.run(pip + packages, check=True)
        marker.write_text("\n".join(packages), encoding="utf-8")
    elif reinstall:
        subprocess.run(pip + ["--no-deps", "--force-reinstall"] + reinstall, check=True)
    return venv


def ours_venv() -> Path:
    """flake8 + inplace-lint (with the language server) installed from this checkout, not editable; the
    package reinstalled from this tree on every run. Its console scripts are the CLI we measure."""
    build = ROOT / "build"
    had_build = build.exists()
    try:
        return _venv("bench-ours", [FLAKE8, f"{ROOT}[lsp]"], reinstall=[str(ROOT)])
    finally:
        if not had_build:  # pip builds the wheel in the tree: leave no build/ a later wheel could pick up
            shutil.rmtree(build, ignore_errors=True)


def baseline_venv(checkout: Path) -> Path:
    """The baseline checkout installed as ``ours_venv`` installs this one, from a copy of its package
    files (pip builds in the source folder: the checkout itself is never written to)."""
    source = CACHE / "baseline-source"
    shutil.rmtree(source, ignore_errors=True)

    def ignore(folder: str, names: List[str]) -> List[str]:
        if Path(folder) == checkout:  # the top: the package and the files its build reads
            return [n for n in names if n != "inplace_lint" and not (checkout / n).is_file()]
        return [n for n in names if n == "__pycache__" or n.endswith(".pyc")]

    shutil.copytree(checkout, source, ignore=ignore)
    return _venv("bench-baseline", [FLAKE8, f"{source}[lsp]"], reinstall=[str(source)])


def torchfix_venv() -> Path:
    return _venv("torchfix-venv", [TORCHFIX])


def tool_versions(venv: Path) -> str:
    done = subprocess.run([str(venv / "bin" / "flake8"), "--version"], capture_output=True, text=True,
                          env=base_env())
    libcst = subprocess.run([str(venv / "bin" / "python"), "-c",
                             "from importlib.metadata import version; print(version('libcst'))"],
                            capture_output=True, text=True, env=base_env())
    extra = f"; libcst {libcst.stdout.strip()}" if libcst.returncode == 0 else ""
    return " ".join(done.stdout.split()) + extra


def git_commit(folder: Path) -> str:
    done = subprocess.run(["git", "-C", str(folder), "rev-parse", "--short", "HEAD"], capture_output=True,
                          text=True)
    commit = done.stdout.strip() or "unknown"
    dirty = subprocess.run(["git", "-C", str(folder), "status", "--porcelain", "--untracked-files=no"],
                           capture_output=True, text=True).stdout.strip()
    return commit + (" (with uncommitted changes)" if dirty else "")


# --- corpora --------------------------------------------------------------------------------------------

def every_spec(text: str, names: Iterable[str]) -> Dict[str, int]:
    """``4`` (every corpus) or ``transformers=4,timm=2`` (the others: 1) -> {corpus: N}."""
    names = list(names)
    if "=" not in text:
        return {name: max(1, int(text)) for name in names}
    out = {name: 1 for name in names}
    for part in text.split(","):
        if part.strip():
            name, _, number = part.partition("=")
            out[name.strip()] = max(1, int(number))
    return out


def python_files(root: Path) -> List[Path]:
    return [p for p in sorted(root.rglob("*.py")) if p.is_file() and not p.is_symlink()]


def corpus_folder(name: str, corpus_root: Path) -> Path:
    folder = corpus_root / REALCODE.get(name, name)
    if folder.is_dir():
        return folder
    from benchmarks.corpus import fetch

    print(f"[{name}] not under {corpus_root}: falling back to benchmarks/corpus.py", file=sys.stderr)
    return fetch(name)


def megabytes(files: List[Path]) -> float:
    return sum(p.stat().st_size for p in files) / 1e6


def _listing(files: List[Path], path: Path) -> Path:
    path.write_text("\n".join(str(p) for p in files) + "\n", encoding="utf-8")
    return path


class Tools:
    """Where every compared tool lives, and how each is started."""

    def __init__(self, work: Path, baseline: Optional[Path], skip_flake8: bool, skip_torchfix: bool,
                 skip_baseline_flake8: bool):
        self.work = work
        self.baseline = baseline
        self.ours = ours_venv()
        self.python = str(self.ours / "bin" / "python")
        self.flake8 = None if skip_flake8 else _venv("bench-flake8", [FLAKE8])
        self.bugbear = None if skip_flake8 else _venv("bench-flake8-bugbear", [FLAKE8, BUGBEAR])
        self.torchfix = None if skip_torchfix else torchfix_venv()
        self.baseline_venv = None if baseline is None else baseline_venv(baseline)
        self.baseline_flake8 = not (baseline is None or skip_flake8 or skip_baseline_flake8)
        self.env = base_env()
        self.empty_config = work / "empty.toml"
        self.empty_config.write_text("[tool.inplace-lint]\n", encoding="utf-8")

    def check_args(self) -> List[str]:
        return ["check", "-q", "--exit-zero", "--force-exclude", "--exclude", "", "--config",
                str(self.empty_config), "-j", "1", "--no-cache"]

    def cli(self, paths: List[str], venv: Optional[Path] = None) -> List[str]:
        return [str((venv or self.ours) / "bin" / "inplace-lint")] + self.check_args() + paths

    def baseline_cli(self, paths: List[str]) -> List[str]:
        return self.cli(paths, self.baseline_venv)

    def commands(self, name: str, files: List[Path], warm: List[Path], subset: List[Path],
                 flake8_files: List[Path]) -> List[Command]:
        """The compared commands of one corpus, in the order each round runs them."""
        paths, warm_paths = [str(p) for p in files], [str(p) for p in warm]
        flake8_paths = [str(p) for p in flake8_files]
        listing = _listing(files, self.work / f"{name}-files.txt")
        warm_listing = _listing(warm, self.work / f"{name}-warm.txt")
        yardstick = [self.python, str(ROOT / "benchmarks" / "ast_yardstick.py")]
        w = self.work
        out = [Command("ast.parse", yardstick + [str(listing)], self.env, w, yardstick + [str(warm_listing)]),
               Command("cli", self.cli(paths), self.env, w, self.cli(warm_paths))]
        if self.baseline_venv is not None:
            out.append(Command("baseline cli", self.baseline_cli(paths), self.env, w,
                               self.baseline_cli(warm_paths)))
        if self.flake8 is not None:
            flake8_args = ["--isolated", "-j", "1", "--exit-zero", FLAKE8_SELECT]
            flake8s = [("flake8", self.flake8), ("flake8 + inplace-lint", self.ours),
                       ("flake8 + bugbear", self.bugbear)]
            if self.baseline_flake8:
                flake8s.append(("flake8 + baseline", self.baseline_venv))
            for label, venv in flake8s:
                exe = [str(venv / "bin" / "flake8")] + flake8_args
                out.append(Command(label, exe + flake8_paths, self.env, w, exe + warm_paths))
        if self.torchfix is not None and subset:
            sub_paths = [str(p) for p in subset]
            sub_listing = _listing(subset, self.work / f"{name}-subset.txt")
            torchfix = [str(self.torchfix / "bin" / "torchfix"), "-j", "1"]
            out += [Command("ast.parse (subset)", yardstick + [str(sub_listing)], self.env, w),
                    Command("cli (subset)", self.cli(sub_paths), self.env, w),
                    Command("torchfix (subset)", torchfix + sub_paths, self.env, w,
                            torchfix + warm_paths[:2])]
        return out


def measure_corpus(name: str, folder: Path, every: int, repeat: int, tools: Tools,
                   flake8_every: int = 1) -> Dict[str, object]:
    files = python_files(folder)
    if every > 1:
        files = files[::every]
    subset = files[:: TORCHFIX_EVERY.get(name, 10)]
    flake8_files = files[::max(1, flake8_every)]
    for path in files:  # into the page cache before the first timed round
        path.read_bytes()
    row: Dict[str, object] = {"folder": str(folder), "files": len(files), "mb": megabytes(files),
                              "subset_files": len(subset), "subset_mb": megabytes(subset),
                              "subset_every": TORCHFIX_EVERY.get(name, 10), "flake8_files": len(flake8_files),
                              "flake8_mb": megabytes(flake8_files), "flake8_every": flake8_every,
                              "load_before": load()}
    print(f"[{name}] {len(files)} files, {row['mb']:.1f} MB ({folder})", file=sys.stderr, flush=True)
    commands = tools.commands(name, files, files[:5], subset, flake8_files)
    run_loop(commands, repeat, name)
    row["load_after"] = load()
    row["cpu"] = {c.name: c.cpu for c in commands}
    row["wall"] = {c.name: c.wall for c in commands}
    return row


def measure_startup(tools: Tools, rounds: int) -> Dict[str, List[float]]:
    """CPU of linting one small file, alternated with the bare interpreter's start-up."""
    small = tools.work / "one_file.py"
    small.write_text("import torch\n\n\ndef step(x: torch.Tensor):\n    y = x.exp()\n    y.add_(1)\n"
                     "    return y\n", encoding="utf-8")
    commands = [Command("python -c pass", [tools.python, "-c", "pass"], tools.env, tools.work),
                Command("inplace-lint, one file", tools.cli([str(small)]), tools.env, tools.work,
                        tools.cli([str(small)]))]
    if tools.baseline_venv is not None:
        commands.append(Command("baseline, one file", tools.baseline_cli([str(small)]), tools.env,
                                tools.work, tools.baseline_cli([str(small)])))
    run_loop(commands, rounds, "start-up")
    return {c.name: c.cpu for c in commands}


# --- language server ------------------------------------------------------------------------------------

def synthetic_file(lines: int = 3000) -> str:
    """Model code as it is written: modules with __init__/forward, helpers, a training step, hazards."""
    block = '''

class Block{n}(nn.Module):
    """A residual block."""

    def __init__(self, dim, hidden):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.fc1 = nn.Linear(dim, hidden)
        self.act = nn.GELU()
        self.fc2 = nn.Linear(hidden, dim)
        self.drop = nn.Dropout(0.1)

    def forward(self, x):
        shortcut = x
        x = self.norm(x)
        x = self.fc2(self.drop(self.act(self.fc1(x))))
        return shortcut + x


def helper{n}(x, scale=2.0):
    y = torch.sigmoid(x)
    z = y * scale
    return z.sum(dim=-1)


def train_step{n}(model, batch, opt):
    out = model(batch)
    loss = out.pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.item()


def hazard{n}(a: torch.Tensor):
    b = a.exp()
    b.add_(1)
    return b
'''
    header = "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n"
    parts = [header]
    count = header.count("\n")
    n = 0
    while count < lines:
        text = block.replace("{n}", str(n))
        parts.append(text)
        count += text.count("\n")
        n += 1
    return "".join(parts)


def edit_sites(text: str, finding_lines: Iterable[int], most: int = 10) -> Dict[str, List[Tuple[int, int]]]:
    """Where the language server's edits go: (0-based line, column) just after the value of a one-line
    ``return`` in an ASCII line, for two kinds of function, up to ``most`` of each spread over the file.

    "no finding": a function with no finding in it whose name no function with a finding mentions (so no
    finding depends on it, as far as names tell); "finding": a function with a finding in it. Innermost
    functions only, so an edit belongs to one function."""
    tree = ast.parse(text)
    lines = text.split("\n")
    findings = set(finding_lines)
    functions = [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    innermost = [f for f in functions
                 if not any(isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
                            for n in ast.walk(f) if n is not f)]

    def span(f) -> range:
        first = min([f.lineno] + [d.lineno for d in f.decorator_list])
        return range(first, f.end_lineno + 1)

    with_finding = [f for f in functions if any(line in span(f) for line in findings)]
    mentioned = {n.id for f in with_finding for n in ast.walk(f) if isinstance(n, ast.Name)}
    mentioned |= {n.attr for f in with_finding for n in ast.walk(f) if isinstance(n, ast.Attribute)}
    sites: Dict[str, List[Tuple[int, int]]] = {"no finding": [], "finding": []}
    for f in innermost:
        has_finding = any(line in span(f) for line in findings)
        if not has_finding and f.name in mentioned:
            continue
        for node in ast.walk(f):
            if (isinstance(node, ast.Return) and node.value is not None and node.lineno == node.end_lineno
                    and lines[node.lineno - 1].isascii()):
                kind = "finding" if has_finding else "no finding"
                sites[kind].append((node.lineno - 1, node.end_col_offset))
                break
    for kind, found in sites.items():
        if len(found) > most:
            sites[kind] = [found[i * len(found) // most] for i in range(most)]
    return sites


class _Client:
    def __init__(self, process: subprocess.Popen):
        self.process = process
        self.next_id = 0
        self.diagnostics: Dict[int, float] = {}  # version -> arrival time
        self.lock = threading.Condition()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def send(self, payload: dict) -> None:
        body = json.dumps(payload).encode()
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()

    def request(self, method: str, params: dict) -> None:
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})

    def notify(self, method: str, params: dict) -> None:
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def _read(self) -> None:
        stream = self.process.stdout
        while True:
            headers = {}
            while True:
                line = stream.readline()
                if not line:
                    return
                line = line.strip()
                if not line:
                    break
                name, _, value = line.decode().partition(":")
                headers[name.strip().lower()] = value.strip()
            body = json.loads(stream.read(int(headers["content-length"])))
            if body.get("method") == "textDocument/publishDiagnostics":
                version = body["params"].get("version")
                with self.lock:
                    self.diagnostics[version] = time.perf_counter()
                    self.lock.notify_all()

    def wait_for(self, version: int, timeout: float = 30.0) -> float:
        deadline = time.perf_counter() + timeout
        with self.lock:
            while version not in self.diagnostics:
                left = deadline - time.perf_counter()
                if left <= 0:
                    raise TimeoutError(f"no diagnostics for version {version}")
                self.lock.wait(left)
            return self.diagnostics[version]


def lsp_session(tools: Tools, text: str, sites: Dict[str, List[Tuple[int, int]]], edits: int,
                file_name: str) -> Dict[str, List[float]]:
    """One server: seconds to the first open's diagnostics, then ``edits`` edits of each kind, alternated."""
    folder = Path(tempfile.mkdtemp(prefix="inplace-lint-lsp-", dir=tools.work))
    path = folder / file_name
    path.write_text(text, encoding="utf-8")
    (folder / "pyproject.toml").write_text("[tool.inplace-lint]\n", encoding="utf-8")
    uri = path.as_uri()
    process = subprocess.Popen([str(tools.ours / "bin" / "inplace-lint"), "lsp"], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=folder, env=tools.env)
    client = _Client(process)
    out: Dict[str, List[float]] = {"first open": []}
    try:
        client.request("initialize",
                       {"processId": os.getpid(), "rootUri": folder.as_uri(), "capabilities": {}})
        client.notify("initialized", {})
        time.sleep(0.5)  # the server's own start-up is not the open's
        sent = time.perf_counter()
        client.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "python",
                                                                "version": 1, "text": text}})
        out["first open"].append(client.wait_for(1, timeout=120) - sent)
        time.sleep(0.3)
        lines = text.split("\n")
        version = 1
        kinds = [k for k in ("no finding", "finding") if sites.get(k)]
        for index in range(edits):
            for kind in kinds:
                line, column = sites[kind][(index // 2) % len(sites[kind])]
                old = lines[line]
                # a keystroke-sized edit: " + 0" after the returned value; the next edit there undoes it
                if index % 2 == 0:
                    new = old[:column] + " + 0" + old[column:]
                else:
                    new = old[:column] + old[column + 4:]
                lines[line] = new
                version += 1
                change = {"range": {"start": {"line": line, "character": 0},
                                    "end": {"line": line, "character": len(old)}}, "text": new}
                sent = time.perf_counter()
                client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                                         "contentChanges": [change]})
                out.setdefault(kind, []).append(client.wait_for(version) - sent)
                time.sleep(0.3)  # edits apart: each is measured on its own
        client.request("shutdown", {})
        client.notify("exit", {})
    finally:
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        shutil.rmtree(folder, ignore_errors=True)
    return out


def finding_lines(tools: Tools, text: str, file_name: str) -> List[int]:
    """The lines of the findings our CLI reports for ``text`` (its JSON output; untimed)."""
    path = tools.work / file_name
    path.write_text(text, encoding="utf-8")
    done = subprocess.run([str(tools.ours / "bin" / "inplace-lint"), "check", "--no-cache", "-j", "1",
                           "--exit-zero", "--config", str(tools.empty_config), "--output-format", "json",
                           str(path)], capture_output=True, text=True, env=tools.env, cwd=tools.work)
    path.unlink()
    return [f["location"]["row"] for f in json.loads(done.stdout or "[]")]


def measure_lsp(tools: Tools, documents: List[Tuple[str, str]], repeat: int, edits: int) -> Dict[str, dict]:
    """Per document: its lines, findings, the sites edited, and the seconds of every open and edit."""
    out: Dict[str, dict] = {}
    for label, text in documents:
        file_name = "model.py" if label == "synthetic" else Path(label).name
        lines = finding_lines(tools, text, file_name)
        sites = edit_sites(text, lines)
        times: Dict[str, List[float]] = {}
        for round_ in range(max(1, repeat)):
            for kind, values in lsp_session(tools, text, sites, edits, file_name).items():
                times.setdefault(kind, []).extend(values)
            print(f"[lsp {label}] round {round_ + 1}/{repeat}: "
                  + ", ".join(f"{k} {statistics.median(v) * 1000:.0f} ms" for k, v in times.items()),
                  file=sys.stderr, flush=True)
        out[label] = {"lines": len(text.splitlines()), "findings": len(lines),
                      "sites": {k: len(v) for k, v in sites.items()}, "times": times}
    return out


# --- report ---------------------------------------------------------------------------------------------

def _mm(values: Sequence[float], fmt: str = "{:.2f}", suffix: str = "") -> str:
    low, mid = min_median(values)
    if low != low:
        return "n/a"
    return f"{fmt.format(low)}{suffix} / {fmt.format(mid)}{suffix}"


def _load_text(before: dict, after: dict) -> str:
    return (f"{before['load1']:.2f} -> {after['load1']:.2f} (1-min; 5-min {before['load5']:.2f} -> "
            f"{after['load5']:.2f})")


def summarize(rows: Dict[str, dict]) -> Dict[str, Dict[str, List[float]]]:
    """Per corpus, the per-round series every reported figure is the min / median of."""
    out = {}
    for name, row in rows.items():
        cpu = row["cpu"]
        mb = row["mb"]
        s: Dict[str, List[float]] = {
            "ast s/MB": [c / mb for c in cpu["ast.parse"]],
            "cli s/MB": [c / mb for c in cpu["cli"]],
            "cli/ast": paired_ratios(cpu["cli"], cpu["ast.parse"]),
        }
        if "baseline cli" in cpu:
            s["baseline s/MB"] = [c / mb for c in cpu["baseline cli"]]
            s["baseline/ast"] = paired_ratios(cpu["baseline cli"], cpu["ast.parse"])
            s["new/baseline"] = paired_ratios(cpu["cli"], cpu["baseline cli"])
        if "torchfix (subset)" in cpu:
            s["sub cli/ast"] = paired_ratios(cpu["cli (subset)"], cpu["ast.parse (subset)"])
            s["torchfix/cli"] = paired_ratios(cpu["torchfix (subset)"], cpu["cli (subset)"])
            s["torchfix s/MB"] = [c / row["subset_mb"] for c in cpu["torchfix (subset)"]]
        if "flake8" in cpu:
            ours = paired_added(cpu["flake8 + inplace-lint"], cpu["flake8"])
            bugbear = paired_added(cpu["flake8 + bugbear"], cpu["flake8"])
            s["flake8 s/MB"] = [c / row["flake8_mb"] for c in cpu["flake8"]]
            s["ours added s"] = ours
            s["bugbear added s"] = bugbear
            s["ours/bugbear"] = paired_ratios(ours, bugbear)
            if "flake8 + baseline" in cpu:
                baseline = paired_added(cpu["flake8 + baseline"], cpu["flake8"])
                s["baseline added s"] = baseline
                s["ours/baseline added"] = paired_ratios(ours, baseline)
        out[name] = s
    return out


def goals(series: Dict[str, Dict[str, List[float]]], startup: Optional[Dict[str, List[float]]],
          lsp: Optional[Dict[str, dict]],
          rows: Optional[Dict[str, dict]] = None) -> List[Tuple[str, str, float, float, str]]:
    """(goal, where, measured median, bound, verdict): every goal is judged on its median."""
    out = []
    for name, s in series.items():
        value = min_median(s["cli/ast"])[1]
        out.append(("CLI -j1 --no-cache CPU / ast.parse", name, value, GOAL_CLI_OVER_AST,
                    verdict(value, GOAL_CLI_OVER_AST)))
    for name, s in series.items():
        if "ours/bugbear" in s:
            value = min_median(s["ours/bugbear"])[1]
            every = (rows or {}).get(name, {}).get("flake8_every", 1)
            where = name if every == 1 else f"{name} (every {every}th file)"
            out.append(("flake8: CPU our plugin adds / bugbear adds", where, value, GOAL_PLUGIN_OVER_BUGBEAR,
                        verdict(value, GOAL_PLUGIN_OVER_BUGBEAR)))
    if startup:
        value = min_median(startup["inplace-lint, one file"])[1]
        out.append(("one-file lint, CPU-s", "one small file", value, GOAL_STARTUP_CPU,
                    verdict(value, GOAL_STARTUP_CPU)))
    for label, r in (lsp or {}).items():
        if label == "synthetic":
            continue
        for kind, bound in (("no finding", GOAL_LSP_NO_FINDING_MS), ("finding", GOAL_LSP_FINDING_MS),
                            ("first open", GOAL_LSP_OPEN_MS)):
            values = [t * 1000 for t in r["times"].get(kind, [])]
            value = min_median(values)[1]
            out.append((f"language server, {kind} ms", Path(label).name, value, bound, verdict(value, bound)))
    return out


def report(rows: Dict[str, dict], startup: Optional[Dict[str, List[float]]], lsp: Optional[Dict[str, dict]],
           info: Dict[str, object]) -> str:
    series = summarize(rows)
    repeat = info["repeat"]
    out = ["# Speed benchmark results", "",
           f"`{info['command']}` on {info['date']} UTC ({info['start']} -> {info['end']}), commit "
           f"{info['commit']}: {platform.python_implementation()} {platform.python_version()}, "
           f"{platform.machine()}, {info['load_before']['cores']} cores "
           f"({info['load_before']['usable']} usable), "
           f"shared with other work. Load average {_load_text(info['load_before'], info['load_after'])} "
           "over the run.", "",
           f"Every figure is **min / median** over {repeat} rounds; in each round every command of a "
           "corpus ran once, alternated (A B C ... A B C ...), and a ratio is taken within a round, then "
           "its min and median over rounds. CPU = user + system seconds of the whole process "
           "(start-up included), "
           "`getrusage(RUSAGE_CHILDREN)`. Method: the docstring of `benchmarks/run.py`.", ""]
    if info["every"] > 1:
        out += [f"Every {info['every']}th file of each corpus (sorted by path) was measured.", ""]
    out += ["## Goals (issue 26), judged on the median", "", "| goal | where | measured | bound | |",
            "|---|---|---:|---:|---|"]
    for goal, where, value, bound, result in goals(series, startup, lsp, rows):
        shown = f"{value:.0f}" if value >= 20 else f"{value:.2f}"
        out.append(f"| {goal} | {where} | {shown} | <= {bound:g} | {result} |")
    out += ["", "## CLI and TorchFix (CPU-seconds per MB, and ratios)", "",
            "| corpus | files | MB | `ast.parse` s/MB | CLI -j1 s/MB | CLI / `ast.parse` | TorchFix subset "
            "(files, MB) | TorchFix s/MB | CLI / `ast.parse` on the subset | TorchFix / CLI, same files "
            "| load |",
            "|---|---:|---:|---:|---:|---:|---|---:|---:|---:|---|"]
    for name, row in rows.items():
        s = series[name]
        subset = (f"every {row['subset_every']}th ({row['subset_files']}, {row['subset_mb']:.2f})"
                  if "torchfix/cli" in s else "not run")
        out.append(f"| {name} | {row['files']} | {row['mb']:.1f} | {_mm(s['ast s/MB'], '{:.3f}')} | "
                   f"{_mm(s['cli s/MB'])} | {_mm(s['cli/ast'], '{:.1f}', 'x')} | {subset} | "
                   f"{_mm(s.get('torchfix s/MB', []), '{:.1f}')} | "
                   f"{_mm(s.get('sub cli/ast', []), '{:.1f}', 'x')} | "
                   f"{_mm(s.get('torchfix/cli', []), '{:.0f}', 'x')} | "
                   f"{_load_text(row['load_before'], row['load_after'])} |")
    out += ["", "Corpora: " + "; ".join(f"{n} `{r['folder']}`" for n, r in rows.items()) + ".", ""]
    if any("ours/bugbear" in s for s in series.values()):
        out += ["## flake8: what installing a plugin adds (CPU-seconds of the whole run)", "",
                f"`flake8 --isolated -j 1 {FLAKE8_SELECT}` on the files below, in three environments: flake8 "
                "alone, + inplace-lint, + flake8-bugbear. Added = the run with the plugin minus flake8 alone "
                "in the same round.", "",
                "| corpus | files (MB) | flake8 alone s/MB | ours added (s) | bugbear added (s) "
                "| ours / bugbear |",
                "|---|---|---:|---:|---:|---:|"]
        for name, s in series.items():
            if "ours/bugbear" in s:
                row = rows[name]
                which = "all" if row["flake8_every"] == 1 else f"every {row['flake8_every']}th"
                out.append(f"| {name} | {which}: {row['flake8_files']} ({row['flake8_mb']:.1f}) | "
                           f"{_mm(s['flake8 s/MB'])} | {_mm(s['ours added s'])} | "
                           f"{_mm(s['bugbear added s'])} | {_mm(s['ours/bugbear'], '{:.2f}', 'x')} |")
        out.append("")
    if any("new/baseline" in s for s in series.values()):
        out += ["## Against the baseline", "",
                f"Baseline: `{info['baseline']}` at {info['baseline_commit']}, installed from a copy of its "
                "package files as this checkout is (its own environment, the same dependencies), in the "
                "same loop.", "",
                "| corpus | baseline CLI s/MB | baseline / `ast.parse` | new / baseline CPU "
                "| flake8: ours added / baseline's added |", "|---|---:|---:|---:|---:|"]
        for name, s in series.items():
            if "new/baseline" in s:
                out.append(f"| {name} | {_mm(s['baseline s/MB'])} | "
                           f"{_mm(s['baseline/ast'], '{:.1f}', 'x')} | "
                           f"{_mm(s['new/baseline'], '{:.2f}', 'x')} | "
                           f"{_mm(s.get('ours/baseline added', []), '{:.2f}', 'x')} |")
        out.append("")
    if startup:
        out += ["## Start-up: one small file", "",
                f"`inplace-lint check -j 1 --no-cache` on a 7-line file, "
                f"{len(startup['python -c pass'])} rounds "
                "alternated with the bare interpreter.", "", "| command | CPU-s min / median |", "|---|---:|"]
        for name, values in startup.items():
            out.append(f"| {name} | {_mm(values, '{:.3f}')} |")
        out.append("")
    if lsp:
        out += ["## Language server", "",
                f"`inplace-lint lsp` over stdio, one server per round ({repeat} rounds): first open "
                "(`didOpen` sent -> its `publishDiagnostics`), then single-line edits 0.3 s apart "
                "(`didChange` sent -> its `publishDiagnostics`), alternating between the two kinds of "
                "function; ms.", "",
                "| file | lines | findings | edit sites (no finding / finding) | no-finding edit "
                "| finding edit | first open |", "|---|---:|---:|---|---:|---:|---:|"]
        for label, r in lsp.items():
            cells = []
            for kind in ("no finding", "finding", "first open"):
                values = [t * 1000 for t in r["times"].get(kind, [])]
                cells.append(f"{_mm(values, '{:.0f}')} (n={len(values)})" if values else "n/a")
            out.append(f"| {label} | {r['lines']} | {r['findings']} | {r['sites']['no finding']} / "
                       f"{r['sites']['finding']} | " + " | ".join(cells) + " |")
        out.append("")
    out += ["## Versions", ""] + [f"- {line}" for line in info["versions"]] + [""]
    return "\n".join(out)


def kept_sections(path: Path, text: str) -> str:
    """The sections of the results file that this report does not write (``## Selection`` comes from
    benchmarks/selection.py): kept, after it."""
    if not path.exists():
        return ""
    headings = {line for line in text.splitlines() if line.startswith("## ")}
    kept = []
    for section in path.read_text(encoding="utf-8").split("\n## ")[1:]:
        if "## " + section.splitlines()[0] not in headings:
            kept.append("\n## " + section.rstrip("\n"))
    return "\n" + "\n".join(kept) if kept else ""


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpora", default="transformers,timm,torchvision")
    parser.add_argument("--every", type=int, default=1, help="measure every Nth file only")
    parser.add_argument("--repeat", type=int, default=3, help="rounds of the alternated loop")
    parser.add_argument("--corpus-root", type=Path,
                        default=Path(os.environ.get("INPLACE_LINT_REALCODE_CACHE",
                                                    ROOT / "eval" / ".cache" / "realcode")),
                        help="where eval/realcode's corpora are unpacked (default: "
                             "$INPLACE_LINT_REALCODE_CACHE, else eval/.cache/realcode)")
    parser.add_argument("--baseline-checkout", type=Path, default=None,
                        help="another checkout of inplace-lint to compare with (read only)")
    parser.add_argument("--skip-flake8", action="store_true")
    parser.add_argument("--skip-baseline-flake8", action="store_true")
    parser.add_argument("--skip-lsp", action="store_true")
    parser.add_argument("--skip-torchfix", action="store_true")
    parser.add_argument("--flake8-every", default="1",
                        help="flake8's rows on every Nth of the measured files: N, or NAME=N,... (others 1)")
    parser.add_argument("--lsp-edits", type=int, default=10, help="edits of each kind per server")
    parser.add_argument("--startup-rounds", type=int, default=15)
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parent / "RESULTS.md")
    args = parser.parse_args(argv)
    baseline = args.baseline_checkout.resolve() if args.baseline_checkout else None
    if baseline is not None and not (baseline / "inplace_lint" / "__init__.py").exists():
        parser.error(f"{baseline} is not a checkout of inplace-lint")
    info: Dict[str, object] = {
        "command": "python -m benchmarks.run " + " ".join(argv if argv is not None else sys.argv[1:]),
        "date": time.strftime("%Y-%m-%d", time.gmtime()), "start": time.strftime("%H:%M", time.gmtime()),
        "commit": git_commit(ROOT), "repeat": args.repeat, "every": args.every, "load_before": load(),
        "baseline": str(baseline), "baseline_commit": git_commit(baseline) if baseline else ""}
    rows: Dict[str, dict] = {}
    with tempfile.TemporaryDirectory(prefix="inplace-lint-bench-") as folder:
        tools = Tools(Path(folder), baseline, args.skip_flake8, args.skip_torchfix, args.skip_baseline_flake8)
        startup = measure_startup(tools, args.startup_rounds)
        names = [n.strip() for n in args.corpora.split(",") if n.strip()]
        flake8_every = every_spec(args.flake8_every, names)
        for name in names:
            rows[name] = measure_corpus(name, corpus_folder(name, args.corpus_root), args.every, args.repeat,
                                        tools, flake8_every[name])
        lsp = None
        if not args.skip_lsp:
            documents = [("synthetic", synthetic_file())]
            for corpus, relative in LSP_REAL_FILES:
                path = corpus_folder(corpus, args.corpus_root) / relative
                if path.exists():
                    documents.append((f"{corpus}/{relative}", path.read_text(encoding="utf-8")))
            lsp = measure_lsp(tools, documents, args.repeat, args.lsp_edits)
        versions = [f"flake8 + inplace-lint (this checkout, installed; also the CLI and language server "
                    f"measured): {tool_versions(tools.ours)}"]
        if tools.flake8 is not None:
            versions += [f"flake8 alone: {tool_versions(tools.flake8)}",
                         f"flake8 + bugbear: {tool_versions(tools.bugbear)}"]
        if tools.baseline_venv is not None:
            versions.append(f"baseline's environment: {tool_versions(tools.baseline_venv)}")
        if tools.torchfix is not None:
            versions.append(f"TorchFix: {TORCHFIX} (`torchfix -j 1`, its default rules)")
    info["load_after"] = load()
    info["end"] = time.strftime("%H:%M", time.gmtime())
    info["versions"] = versions
    text = report(rows, startup, lsp, info)
    text += kept_sections(args.out, text)
    args.out.write_text(text + "\n", encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
