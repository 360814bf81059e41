"""The benchmark's yardstick: read and ``ast.parse`` every file of a list, in a process of its own.

    python benchmarks/ast_yardstick.py FILE-LIST

``FILE-LIST`` holds one path a line. The process is timed whole (start-up included), like every command
it is compared with, and in the same alternated loop (``benchmarks/run.py``). Files that do not parse are
skipped, as a linter reports them and goes on.
"""

import ast
import sys
import warnings


def main(listing: str) -> int:
    with open(listing, encoding="utf-8") as f:
        paths = [line for line in f.read().split("\n") if line]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # SyntaxWarnings of old escapes: printing them is not parsing
        for path in paths:
            try:
                with open(path, "rb") as f:
                    ast.parse(f.read())
            except (OSError, SyntaxError, ValueError):
                pass
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1]))
