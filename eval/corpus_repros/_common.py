"""Shared helper for the reproductions: run a forward+backward and report whether torch raised."""
import sys

import torch

VERSION_ERROR = "modified by an inplace operation"
# AGI003: torch refuses the write to an output of split/chunk/unbind at once
MULTI_VIEW_ERROR = "output of a function that returns multiple views"


def expect(label, fn, raises):
    try:
        fn()
        raised = None
    except RuntimeError as error:
        if VERSION_ERROR not in str(error) and MULTI_VIEW_ERROR not in str(error):
            raise
        raised = str(error).splitlines()[0][:140]
    status = "raises" if raised else "runs clean"
    ok = bool(raised) == raises
    print(f"{'OK ' if ok else 'BAD'} {label}: {status}" + (f" ({raised})" if raised else ""))
    return ok


def main(cases):
    torch.manual_seed(0)
    results = [expect(*case) for case in cases]
    sys.exit(0 if all(results) else 1)
