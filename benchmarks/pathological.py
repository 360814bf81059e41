"""Time the pathological inputs the test suite checks only for bounded work (tests/test_bad_input.py).

    python -m benchmarks.pathological

Prints CPU seconds (this process: ``time.process_time``) and wall seconds of ``lint_source`` for a dense
hazard file (7-line functions, each a finding) of 20,000 and 100,000 lines, a 100,000-line flat file,
and 98 nested for-loops. Each figure is the fastest of three runs: other load only ever adds time.
Not part of the test suite: no test asserts on time.
"""

from __future__ import annotations

import time

from inplace_lint.engine.core import lint_source
from inplace_lint.model.findings import LintOptions

# These inputs are plain functions with no caller: their findings rest on the assumption that a parameter
# requires grad, the opt-in level (tests/test_bad_input.py lints them the same way). At the default
# level they would have no finding, and the timing would be of a file with nothing to report.
ASSUMED = LintOptions(assume_params_are_tensors=True)

_HAZARD_BLOCK = """
def step_{i}(a, w):
    h = torch.matmul(a, w)
    h = h + 1
    g = h.sigmoid()
    g += 1
    return g
"""


def dense(lines: int) -> str:
    return "import torch\n" + "".join(_HAZARD_BLOCK.format(i=i) for i in range(-(-lines // 7)))


def flat(lines: int) -> str:
    return "import torch\nx = torch.zeros(3)\n" + "x += 1\n" * lines


def nested_fors(depth: int) -> str:
    loops = "".join("    " + " " * i + f"for i{i} in range(2):\n" for i in range(depth))
    body = "    " + " " * depth + "b *= b\n"
    return "import torch\ndef f(a):\n    b = a ** 2\n" + loops + body + "    return b\n"


def fastest(source: str, repeat: int = 3):
    best = None
    for _ in range(repeat):
        cpu, wall = time.process_time(), time.perf_counter()
        findings = lint_source(source, "<string>", ASSUMED)
        took = (time.process_time() - cpu, time.perf_counter() - wall)
        best = took if best is None or took[0] < best[0] else best
    return best, len(findings)


def main() -> None:
    lint_source(dense(7), "<string>", ASSUMED)  # imports and one-off set-up
    cases = [
        ("dense hazards, 20,000 lines", dense(20_000)),
        ("dense hazards, 100,000 lines", dense(100_000)),
        ("flat, 100,000 lines", flat(100_000)),
        ("98 nested for-loops", nested_fors(98)),
    ]
    for name, source in cases:
        (cpu, wall), count = fastest(source, repeat=1 if "100,000" in name else 3)
        print(f"{name:32} {cpu:7.2f} CPU-s {wall:7.2f} s wall  {count} findings")


if __name__ == "__main__":
    main()
