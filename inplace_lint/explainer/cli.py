"""``inplace-lint explain [OPTIONS] script.py [ARGS...]``, ``inplace-lint explain -m module [ARGS...]``.

The one mode of inplace-lint that runs the user's code: it runs the program as ``python`` would, with the
argv it was given, under the tracer, and exits with the program's own status.
"""

from __future__ import annotations

import argparse
import os
import runpy
import sys
import traceback
from typing import List, Optional, Sequence, Tuple

DESCRIPTION = (
    "RUNS YOUR PROGRAM (this is the one inplace-lint mode that executes code) as `python script.py ARGS` "
    "or `python -m module ARGS` would, under a tracer. When it raises one of torch's in-place autograd "
    "errors (a saved tensor modified in place, an in-place op on a leaf, on a multi-view output, on a "
    "no_grad view), the report before the traceback names the line that made the write, the op that "
    "saved the tensor, the fix, and whether the static check finds that line. Exits with the program's "
    "own status."
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="inplace-lint explain",
        usage="inplace-lint explain [OPTIONS] script.py [ARGS...]\n"
              "       inplace-lint explain [OPTIONS] -m module [ARGS...]",
        description=DESCRIPTION,
    )
    parser.add_argument("-m", dest="module", metavar="MODULE", help="run a module, as python -m does")
    parser.add_argument("--no-static-check", action="store_true",
                        help="do not run the linter on the culprit's file")
    parser.add_argument("--report-file", metavar="FILE",
                        help="also write the report to FILE (the program's own stderr is left alone)")
    return parser


def split_argv(argv: Sequence[str]) -> Tuple[List[str], Optional[str], List[str]]:
    """``(explain's options, script, the program's argv)``: explain's options end at the script or at
    ``-m MODULE``; everything after belongs to the program."""
    argv = list(argv)
    options: List[str] = []
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg == "--":
            return options, (argv[i + 1] if i + 1 < len(argv) else None), argv[i + 2:]
        if arg == "-m":
            return options + argv[i:i + 2], None, argv[i + 2:]
        if arg.startswith("-m") and len(arg) > 2:
            return options + ["-m", arg[2:]], None, argv[i + 1:]
        if arg == "--report-file" and i + 1 < len(argv):
            options += argv[i:i + 2]
            i += 2
            continue
        if arg.startswith("-"):
            options.append(arg)
            i += 1
            continue
        return options, arg, argv[i + 1:]
    return options, None, []


def main(argv: Optional[Sequence[str]] = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser()
    options, script, program_args = split_argv(argv)
    try:
        args = parser.parse_args(options)
    except SystemExit as exit:
        return exit.code if isinstance(exit.code, int) else 2
    if args.module is None and script is None:
        parser.print_usage(sys.stderr)
        print("inplace-lint explain: error: name a script or -m module to run", file=sys.stderr)
        return 2
    if script is not None and not os.path.isfile(script):
        print(f"inplace-lint explain: error: {script}: no such file", file=sys.stderr)
        return 2
    return run_program(script, args.module, program_args, static_check=not args.no_static_check,
                       report_file=args.report_file)


def run_program(script: Optional[str], module: Optional[str], program_args: Sequence[str],
                static_check: bool = True, report_file: Optional[str] = None, session=None) -> int:
    """Run ``script`` (or ``module``) as ``__main__`` under the tracer; return its exit status."""
    from inplace_lint.explainer.session import explain

    session = session or explain(static_check=static_check)
    saved_argv, saved_path = sys.argv[:], sys.path[:]
    if module is not None:
        sys.argv = [module, *program_args]
        sys.path.insert(0, os.getcwd())
    else:
        sys.argv = [script, *program_args]
        sys.path.insert(0, os.path.dirname(os.path.abspath(script)))
    status, error = 0, None
    try:
        with _Traced(session):
            if module is not None:
                runpy.run_module(module, run_name="__main__", alter_sys=True)
            else:
                runpy.run_path(script, run_name="__main__")
    except SystemExit as exit:
        status = _exit_status(exit)
    except KeyboardInterrupt:
        status, error = 130, None
        traceback.print_exc()
    except BaseException as raised:  # the program's own error: report, then its traceback, then exit 1
        status, error = 1, raised
    finally:
        sys.argv, sys.path[:] = saved_argv, saved_path
    reports = []
    if error is not None:
        text = session.explain_error(error)
        if text:
            reports.append(text)
    caught = session.explain_caught()
    if caught:
        reports.append(caught)
    for text in reports:
        sys.stderr.write(text)
    sys.stderr.flush()
    if report_file and reports:
        with open(report_file, "a", encoding="utf-8") as handle:
            handle.write("".join(reports))
    if error is not None:
        _print_program_traceback(error)
    sys.stdout.flush()
    return status


class _Traced:
    """Enter the session's tracer without its own reporting (the runner reports after the program)."""

    def __init__(self, session):
        self.session = session

    def __enter__(self):
        from inplace_lint.explainer.tracer import Tracer

        self.session.tracer = Tracer(self.session.is_user)
        self.session.tracer.__enter__()

    def __exit__(self, *exc):
        self.session.tracer.__exit__(*exc)
        return False


def _exit_status(exit: SystemExit) -> int:
    code = exit.code
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr)  # sys.exit("message"), as python prints it
    return 1


def _print_program_traceback(error: BaseException) -> None:
    """The traceback python would print: without the frames of runpy, this runner and the tracer."""
    own = os.path.dirname(os.path.abspath(__file__)) + os.sep
    overrides = os.path.join("torch", "overrides.py")

    def ours(frame) -> bool:
        name = frame.filename
        return (name.startswith(own) or name == runpy.__file__ or name == "<frozen runpy>"
                or (name.endswith(overrides) and frame.name == "handle_torch_function")
                or "handle_torch_function(" in (frame.line or ""))  # torch handing the call to the tracer

    report = traceback.TracebackException(type(error), error, error.__traceback__)
    seen = set()
    pending = [report]
    while pending:  # the chained exceptions too (raise ... from ...)
        item = pending.pop()
        if id(item) in seen:
            continue
        seen.add(id(item))
        item.stack = traceback.StackSummary.from_list([f for f in item.stack if not ours(f)])
        pending.extend(e for e in (item.__cause__, item.__context__) if e is not None)
    sys.stderr.write("".join(report.format()))
