"""The ``inplace-lint`` command.

    inplace-lint [check] PATH...     lint files and folders (``-`` reads stdin)
    inplace-lint rule AGI001         print a rule's documentation
    inplace-lint lsp [--tcp]         run the language server
    inplace-lint explain script.py   RUN a program, explain its in-place autograd error (see explainer/)

Exit status of ``check``: 0 clean, 1 findings (or, with ``--diff``, changes to make), 2 usage or
configuration error, or a file that could not be linted. Findings go to stdout; notes, summaries and
per-file errors go to stderr, one line each.
"""

from __future__ import annotations

import argparse
import io
import os
import stat
import sys
import time
import tokenize
from pathlib import Path
from typing import List, Optional, Sequence, Tuple

from inplace_lint.model.findings import Finding
from inplace_lint.syntax.lines import lines_with_breaks
from inplace_lint.adapters.output import FORMATS, FileError, file_error_from
from inplace_lint.model.records import Record, factory
from inplace_lint.adapters.terminal import COLOR_CHOICES, is_terminal

SUBCOMMANDS = ("check", "rule", "lsp")
EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # usage errors: one line, exit 2 (argparse's own convention)
        self.print_usage(sys.stderr)
        self.exit(EXIT_ERROR, f"inplace-lint: error: {message}\n")


class _TopParser(_Parser):
    """The top-level parser: its help ends with ``check``'s options, since ``check`` is the default
    command (``inplace-lint --help`` should show ``--fix``)."""

    check_parser: Optional[argparse.ArgumentParser] = None

    def format_help(self) -> str:
        text = super().format_help()
        if self.check_parser is None:
            return text
        check_help = self.check_parser.format_help()
        return (
            f"{text}\nWith no command, 'check' runs: 'inplace-lint PATH...' is "
            f"'inplace-lint check PATH...'.\n\n{check_help}"
        )


def _codes(value: str) -> List[str]:
    return [code.strip() for code in value.replace(" ", ",").split(",") if code.strip()]


def _jobs(value: str) -> int:
    try:
        jobs = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of processes, got {value!r}") from None
    if jobs < 1:
        raise argparse.ArgumentTypeError("expected at least 1 process")
    return jobs


def _patterns(value: str) -> List[str]:
    return [item.strip() for item in value.split(",") if item.strip()]


def build_parser() -> argparse.ArgumentParser:
    from inplace_lint import __version__

    parser = _TopParser(
        prog="inplace-lint",
        description="Find PyTorch in-place operations that break autograd, without running the code.",
    )
    parser.add_argument("--version", action="version", version=f"inplace-lint {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="{check,rule,lsp,explain}", parser_class=_Parser)

    check = sub.add_parser("check", help="lint files and folders (the default command)")
    check.add_argument(
        "paths", nargs="*", metavar="PATH", help="files or folders to lint (default: .); '-' reads stdin"
    )
    check.add_argument(
        "--select", type=_codes, metavar="CODES", help="comma-separated codes or prefixes to report"
    )
    check.add_argument(
        "--ignore", type=_codes, metavar="CODES", help="comma-separated codes or prefixes to drop"
    )
    check.add_argument(
        "--output-format",
        choices=FORMATS,
        default=None,
        help="how to print findings (default: full on a terminal, else concise)",
    )
    check.add_argument(
        "--color",
        choices=COLOR_CHOICES,
        default="auto",
        help="color the full format: auto (on a terminal, unless NO_COLOR is set; FORCE_COLOR forces), "
        "always, never",
    )
    check.add_argument("--statistics", action="store_true", help="print how many findings each code has")
    check.add_argument(
        "-q", "--quiet", action="store_true", help="print findings only: no notes or summaries"
    )
    check.add_argument("--exit-zero", action="store_true", help="exit 0 even when there are findings")
    check.add_argument("--fix", action="store_true", help="apply safe fixes, writing the files")
    check.add_argument(
        "--unsafe-fixes", action="store_true", help="with --fix or --diff, apply unsafe fixes too"
    )
    check.add_argument("--diff", action="store_true", help="print the fixes as a unified diff; write nothing")
    check.add_argument(
        "--show-fixes",
        action="store_true",
        help="list each finding's fix (safe or unsafe); with --fix or --diff, what the fixes fixed",
    )
    check.add_argument(
        "-w", "--watch", action="store_true", help="check again whenever a file changes (Ctrl-C stops)"
    )
    # how many checks --watch makes before it stops (tests; unset: until Ctrl-C)
    check.add_argument("--watch-rounds", type=_jobs, default=None, help=argparse.SUPPRESS)
    check.add_argument("--config", type=Path, metavar="PATH", help="use this pyproject.toml / setup.cfg only")
    check.add_argument("--stdin-filename", metavar="PATH", help="the path of the file read from stdin")
    check.add_argument("--exclude", type=_patterns, metavar="GLOBS", help="replace the exclude list")
    check.add_argument("--extend-exclude", type=_patterns, metavar="GLOBS", help="add to the exclude list")
    check.add_argument(
        "--force-exclude", action="store_true", help="apply exclusions to paths named on the command line too"
    )
    check.add_argument(
        "--respect-gitignore",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="skip what the walked folders' .gitignore files ignore (default: yes)",
    )
    check.add_argument(
        "-j",
        "--jobs",
        type=_jobs,
        default=None,
        metavar="N",
        help="lint files in N processes (default: one per CPU core; 1: no worker processes)",
    )
    check.add_argument(
        "--no-cache", action="store_true", help="analyse every file, neither reading nor writing the cache"
    )
    check.add_argument(
        "--cache-dir",
        type=Path,
        metavar="PATH",
        help="where to cache findings of unchanged files (default: $INPLACE_LINT_CACHE_DIR, else "
        "$XDG_CACHE_HOME/inplace-lint)",
    )
    check.add_argument(
        "--assume-params-are-tensors",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="treat every function's parameters, and values of unknown origin, as tensors that may require "
        "grad, not only an nn.Module method's or what this file's calls pass (default: no)",
    )
    check.add_argument(
        "--whole-program",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="lint each file with the definitions it imports from its project, so that a save in one "
        "file and a write in another are found (default: no; about 1.5-1.8x the CPU)",
    )

    parser.check_parser = check

    rule = sub.add_parser("rule", help="print a rule's documentation")
    rule.add_argument("rule", nargs="?", metavar="CODE", help="a code (AGI001) or a name")
    rule.add_argument("--all", action="store_true", help="list every rule")

    lsp = sub.add_parser("lsp", help="run the language server (stdio unless --tcp)")
    lsp.add_argument("--tcp", action="store_true", help="listen on TCP instead of stdio")
    lsp.add_argument("--host", default="127.0.0.1", help="TCP host (default: 127.0.0.1)")
    lsp.add_argument("--port", type=int, default=2087, help="TCP port (default: 2087)")
    # listed for --help only: main() hands 'explain ...' to its own parser before this one runs
    sub.add_parser("explain", help="RUN a program under a tracer; name the line behind its autograd error")
    return parser


def _with_default_command(argv: Sequence[str]) -> List[str]:
    argv = list(argv)
    first = next((arg for arg in argv if arg not in ("--",)), None)
    if first is None:
        return ["check"]
    if first in SUBCOMMANDS or first in ("-h", "--help", "--version"):
        return argv
    return ["check", *argv]


def main(argv: Optional[Sequence[str]] = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["explain"]:  # runs user code, has its own parser: inplace_lint/explainer/cli.py
        from inplace_lint.explainer.cli import main as explain_main

        return explain_main(argv[1:])
    parser = build_parser()
    try:
        args = parser.parse_args(_with_default_command(argv))
    except SystemExit as exit:
        return exit.code if isinstance(exit.code, int) else EXIT_ERROR
    try:
        if args.command == "rule":
            return _rule_command(args)
        if args.command == "lsp":
            return _lsp_command(args)
        if args.watch:
            from inplace_lint.adapters.watch import watch

            return watch(args, run_check, rounds=args.watch_rounds)
        return run_check(args)
    except KeyboardInterrupt:  # Ctrl-C: no traceback, the shell's convention for SIGINT
        return 130
    except BrokenPipeError:  # `inplace-lint ... | head`
        from inplace_lint.adapters.quiet import quiet_closed_stdout

        quiet_closed_stdout()
        return EXIT_ERROR
    except OSError as error:  # stdout on a full disk, /dev/full, a closed terminal
        from inplace_lint.adapters.quiet import quiet_closed_stdout

        quiet_closed_stdout()
        try:
            print(f"inplace-lint: error: cannot write the output: {error.strerror or error}", file=sys.stderr)
        except OSError:
            pass
        return EXIT_ERROR


# --- rule / lsp --------------------------------------------------------------------------------------


def _rule_command(args) -> int:
    from inplace_lint.rules import RULES

    if args.all or not args.rule:
        if not args.all:
            print("inplace-lint: error: name a rule (inplace-lint rule AGI001) or use --all", file=sys.stderr)
            return EXIT_ERROR
        for rule in RULES.values():
            print(f"{rule.code}  {rule.name}  {rule.summary}")
        return EXIT_CLEAN
    wanted = args.rule.strip()
    rule = RULES.get(wanted.upper()) or next((r for r in RULES.values() if r.name == wanted), None)
    if rule is None:
        known = ", ".join(sorted(RULES))
        print(f"inplace-lint: error: unknown rule {wanted!r} (known: {known})", file=sys.stderr)
        return EXIT_ERROR
    print(f"# {rule.code} ({rule.name})\n\n{rule.summary}\n\n{rule.doc}\n\nDocs: {rule.url}")
    return EXIT_CLEAN


def _lsp_command(args) -> int:
    try:
        from inplace_lint.adapters.lsp import serve
    except ImportError as error:
        print(
            f"inplace-lint: error: the language server needs pygls and lsprotocol "
            f"(pip install 'inplace-lint[lsp]'): {error}",
            file=sys.stderr,
        )
        return EXIT_ERROR
    from inplace_lint.adapters.quiet import serve_quietly

    return serve_quietly(lambda: serve(tcp=args.tcp, host=args.host, port=args.port))


# --- check -------------------------------------------------------------------------------------------


class FileResult(Record):
    """What checking one file produced (plain data, so files can be checked in parallel later)."""

    display: str
    findings: List[Finding] = factory(list)
    error: Optional[FileError] = None
    fixed: int = 0
    new_source: Optional[str] = None  # set when fixes changed the text
    diff: str = ""
    note: Optional[str] = None
    fixed_codes: dict = factory(dict)  # code -> how many findings of it the fixes removed
    dependencies: tuple = ()  # the other files of its program its findings read


def _unified_diff(*args, **kwargs):
    import difflib  # only --diff needs it

    return difflib.unified_diff(*args, **kwargs)


def read_source(data: bytes) -> Tuple[str, str]:
    """Decode a Python file's bytes as Python would (PEP 263 cookie, BOM); return (text, encoding)."""
    encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    return data.decode(encoding), encoding


def check_source(
    source: str,
    display: str,
    settings,
    fix: bool = False,
    unsafe: bool = False,
    diff: bool = False,
    linter=None,
) -> FileResult:
    """Lint (and with ``fix``/``diff``, fix) one file's text. Never raises for bad input.

    ``linter`` replaces the engine's ``lint_source`` when only linting (the cache passes its own).
    """
    from inplace_lint.fixkit.apply import fix_text, lint_text
    from inplace_lint.adapters.terminal import fixed_codes

    result = FileResult(display=display)
    try:
        if fix or diff:
            from inplace_lint.engine.core import lint_source

            before = lint_text(source, display, settings, lint_source)
            outcome = fix_text(source, display, settings, unsafe=unsafe, linter=lint_source, findings=before)
            result.findings = outcome.remaining
            result.fixed_codes = dict(fixed_codes(before, outcome.remaining))
            result.fixed = outcome.fixed
            if outcome.source != source:
                result.new_source = outcome.source
                if diff:
                    result.diff = "".join(
                        _unified_diff(
                            lines_with_breaks(source),
                            lines_with_breaks(outcome.source),
                            fromfile=f"a/{display}",
                            tofile=f"b/{display}",
                        )
                    )
            if outcome.error:
                result.note = f"inplace-lint: {display}: {outcome.error}; please report this"
            elif not outcome.converged:
                result.note = f"inplace-lint: {display}: fixes did not settle after {outcome.rounds} rounds"
        else:
            if linter is None:  # the cache passes its own, which loads the engine only on a miss
                linter = _engine_lint
            result.findings = lint_text(source, display, settings, linter)
    except RecursionError:
        result.error = FileError(display, "cannot lint: the code nests too deeply")
    except Exception as error:  # an internal bug must not lose the other files' results
        from inplace_lint.model.findings import LintError

        if isinstance(error, LintError):
            result.error = file_error_from(display, error)
        else:
            result.error = FileError(
                display, f"internal error ({type(error).__name__}: {error}); please report it"
            )
    return result


def _dependencies(display: str) -> tuple:
    """The other files the lint of ``display`` just read (its imports), if the engine ran here."""
    engine = sys.modules.get("inplace_lint.engine.program")
    return tuple(str(p) for p in engine.last_dependencies(display)) if engine is not None else ()


def _not_regular(path: Path) -> Optional[str]:
    """Why ``path`` cannot be read as a file (a symlink loop, a FIFO, a device), or None."""
    try:
        mode = os.stat(path).st_mode
    except OSError as error:
        return f"cannot read: {error.strerror or error}"
    if not stat.S_ISREG(mode):
        return "cannot read: not a regular file"
    return None


def check_path(path: Path, settings, fix: bool, unsafe: bool, diff: bool, linter=None,
               roots: Optional[Sequence[str]] = None) -> FileResult:
    """Lint (and fix) one file. ``roots``: the paths named on the command line; a symlink is fixed only
    when its target lies inside one of them."""
    display = str(path)
    problem = _not_regular(path)
    if problem is not None:
        return FileResult(display, error=FileError(display, problem))
    try:
        data = path.read_bytes()
    except OSError as error:
        return FileResult(display, error=FileError(display, f"cannot read: {error.strerror or error}"))
    try:
        source, encoding = read_source(data)
    except (SyntaxError, UnicodeDecodeError, LookupError) as error:
        return FileResult(display, error=FileError(display, f"cannot decode: {error}"))
    result = check_source(source, display, settings, fix=fix, unsafe=unsafe, diff=diff, linter=linter)
    result.dependencies = _dependencies(display)
    if fix and not diff and result.new_source is not None:
        from inplace_lint.fixkit.apply import write_fixed

        try:
            problem = write_fixed(str(path), data, result.new_source.encode(encoding), roots)
        except UnicodeEncodeError as error:
            problem = f"cannot write the fixes: {error}; the file is unchanged"
        if problem is not None:
            # nothing was written: the findings are the file's own, and none counts as fixed
            unfixed = check_source(source, display, settings, linter=linter)
            unfixed.error = FileError(display, problem)
            return unfixed
    return result


# --- many files: cache, worker processes ---------------------------------------------------------------


def _engine_lint(source: str, path: str, options):
    from inplace_lint.engine.core import lint_source

    # with what this file's calls cause in the other files of its program: _route_foreign hands them on
    return lint_source(source, path, options, include_foreign=True)


def _make_cache(args, fixing: bool):
    """The findings cache, or None (``--no-cache``; ``--fix``/``--diff`` always analyse afresh)."""
    if getattr(args, "no_cache", False) or fixing:
        return None
    from inplace_lint.engine.cache import Cache, genuine

    if not genuine():
        return None
    return Cache(args.cache_dir)


_WORKER: dict = {}


def _tune_gc() -> None:
    """LibCST builds many short-lived objects that reference counting frees: the cyclic collector's
    frequent young-generation passes over them are pure overhead in a batch run."""
    import gc

    gc.freeze()
    gc.set_threshold(100_000, 50, 1000)


class _BatchGC:
    """:func:`_tune_gc` for the duration of a batch in this process, then the collector as it was."""

    def __enter__(self):
        import gc

        self.threshold = gc.get_threshold()
        _tune_gc()
        return self

    def __exit__(self, *exc):
        import gc

        gc.unfreeze()
        gc.set_threshold(*self.threshold)
        return False


def _worker_init(cache_dir: Optional[str], use_cache: bool) -> None:
    import signal

    # Ctrl-C reaches every process of the terminal's group: the main process alone decides what it
    # means (stop the workers, exit 130), so a worker neither prints a traceback nor dies mid-file.
    # (The main process blocked SIGINT while it forked the workers; they inherit that, until here.)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    _tune_gc()
    if use_cache:
        from inplace_lint.engine.cache import Cache

        _WORKER["linter"] = Cache(Path(cache_dir) if cache_dir else None).linter(_engine_lint)


def _worker_check(job) -> FileResult:
    path, settings, fix, unsafe, diff, roots = job
    return check_path(path, settings, fix=fix, unsafe=unsafe, diff=diff, linter=_WORKER.get("linter"),
                      roots=roots)


def _cached_result(path: Path, settings, cache) -> Optional[FileResult]:
    """The file's result from the cache, or None (not cached, or unreadable: the worker reports it)."""
    from inplace_lint.engine.cache import key

    try:
        source, _ = read_source(path.read_bytes())
    except (OSError, SyntaxError, UnicodeDecodeError, LookupError):
        return None
    display = str(path)
    found = cache.get(key(source, display, settings.lint_options()))
    if found is None:
        return None
    cache.hits += 1
    result = check_source(source, display, settings, linter=lambda *_: found)
    result.dependencies = _dependencies(display)
    return result


def _regular_stat(path: Path) -> Optional[os.stat_result]:
    try:
        found = os.stat(path)
    except OSError:
        return None
    return found if stat.S_ISREG(found.st_mode) else None


class _CountingResults(list):
    """The per-file results, filled as files finish (here or in a worker); each filled slot moves the
    progress line on."""

    def __init__(self, items, progress) -> None:
        super().__init__(items)
        self.progress = progress

    def __setitem__(self, index, value) -> None:
        super().__setitem__(index, value)
        self.progress.step()


def _progress_for(args, total: int):
    from inplace_lint.adapters.terminal import Progress

    quiet = getattr(args, "quiet", False) or getattr(args, "watch", False)
    return Progress(total, sys.stderr, enabled=False if quiet else None)


def _check_files(files, args, fix: bool, unsafe: bool, diff: bool) -> List[FileResult]:
    """Check ``files`` ((path, settings) pairs), in order; cached and worker results alike."""
    cache = _make_cache(args, fix or diff)
    progress = _progress_for(args, len(files))
    results: List[Optional[FileResult]] = _CountingResults([None] * len(files), progress)
    todo = []
    stat_index = cache.stat_index() if cache is not None else None
    stats: List[Optional[os.stat_result]] = [None] * len(files)  # taken before the file is read
    stat_time = time.time_ns()
    for index, (path, settings) in enumerate(files):
        cached = None
        if stat_index is not None:
            stats[index] = _regular_stat(path)
            if stats[index] is not None:
                found = stat_index.lookup(path, str(path), settings, stats[index])
                if found is not None:
                    cache.hits += 1
                    results[index] = FileResult(str(path), findings=found)
                    stats[index] = None  # already in the index as it is
                    continue
                cached = _cached_result(path, settings, cache)
        if cached is not None:
            results[index] = cached
        else:
            todo.append(index)
    try:
        _lint_files(files, todo, results, args, cache, fix, unsafe, diff)
    finally:
        if stat_index is not None:
            for index, result in enumerate(results):
                if stats[index] is not None and result is not None and result.error is None:
                    path, settings = files[index]
                    stat_index.remember(path, result.display, settings, stats[index], result.findings,
                                        stat_time, result.dependencies)
            stat_index.save()
        progress.finish()
    _route_foreign(results, files)
    return results  # type: ignore[return-value]


def _route_foreign(results: List[FileResult], files) -> None:
    """Each file's findings in other files of its program (a write there on a tensor it saved) moved to
    those files' results, when they are linted in this run too, under their own ``noqa`` comments and
    per-file ignores; one per place. A file outside the run does not get them."""
    from inplace_lint.syntax.noqa import filter_suppressed

    index = {os.path.abspath(result.display): (slot, result) for slot, result in enumerate(results)
             if result is not None}
    moved: dict = {}
    for result in results:
        if result is None or not result.findings:
            continue
        here = os.path.abspath(result.display)
        kept = []
        for finding in result.findings:
            if finding.path == result.display or os.path.abspath(finding.path) == here:
                kept.append(finding)
            else:
                moved.setdefault(os.path.abspath(finding.path), []).append(finding)
        result.findings = kept
    for target, found in moved.items():
        slot, result = index.get(target, (None, None))
        if result is None or result.error is not None:
            continue
        try:
            source, _ = read_source(Path(target).read_bytes())
        except (OSError, SyntaxError, UnicodeDecodeError, LookupError):
            continue
        settings = files[slot][1]
        ignored = tuple(settings.ignored_codes_for(Path(result.display))) if settings.per_file_ignores else ()
        places = {(f.code, f.start.line, f.start.column) for f in result.findings}
        for finding in sorted(found, key=lambda f: (f.start.line, f.start.column, f.code, f.message)):
            finding = finding.replace(path=result.display)
            if (finding.code, finding.start.line, finding.start.column) in places or \
                    finding.code.startswith(ignored or ("\0",)):
                continue
            if filter_suppressed([finding], source):
                places.add((finding.code, finding.start.line, finding.start.column))
                result.findings.append(finding)
        result.findings.sort(key=lambda f: (f.start.line, f.start.column, f.code))


def _lint_files(files, todo: List[int], results: List[Optional[FileResult]], args, cache, fix: bool,
                unsafe: bool, diff: bool) -> None:
    """Lint the files at the ``todo`` indexes into ``results``: here, or in worker processes."""
    jobs = args.jobs if getattr(args, "jobs", None) else (os.cpu_count() or 1)
    jobs = min(jobs, len(todo))
    cache_dir = str(cache.folder) if cache is not None else None
    roots = tuple(str(path) for path in getattr(args, "paths", None) or ()) or (".",)
    if jobs <= 1:
        linter = cache.linter(_engine_lint) if cache is not None else None
        with _BatchGC():
            for index in todo:
                path, settings = files[index]
                results[index] = check_path(path, settings, fix=fix, unsafe=unsafe, diff=diff, linter=linter,
                                            roots=roots)
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    # the biggest files first, so that no worker is left with a big one at the end
    def size(index: int) -> int:
        try:
            return files[index][0].stat().st_size
        except OSError:
            return 0

    todo.sort(key=size, reverse=True)
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if sys.platform == "linux" and "fork" in methods else None)
    pool = ProcessPoolExecutor(
        max_workers=jobs,
        mp_context=context,
        initializer=_worker_init,
        initargs=(cache_dir, cache is not None),
    )
    try:
        jobs_args = [(files[i][0], files[i][1], fix, unsafe, diff, roots) for i in todo]
        with _sigint_blocked():  # the workers start in here, and must not take a Ctrl-C before they ignore it
            answers = pool.map(_worker_check, jobs_args, chunksize=1)
        for index, result in zip(todo, answers):
            results[index] = result
    except BaseException:  # Ctrl-C (or a worker that died): stop the others now, never wait for them
        _stop_workers(pool)
        raise
    pool.shutdown(wait=True)


class _sigint_blocked:
    """SIGINT held (not lost) while the block runs, where the platform can block signals."""

    def __enter__(self):
        import signal

        self.blocking = hasattr(signal, "pthread_sigmask")
        if self.blocking:
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        return self

    def __exit__(self, *exc):
        import signal

        if self.blocking:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})  # a Ctrl-C held is raised here
        return False


def _stop_workers(pool) -> None:
    """Cancel what has not started and end the workers (SIGTERM: a worker in the middle of writing a
    fixed file finishes that write first, see apply_fixes.write_fixed). ``_processes`` is private, but
    there is no public way to end a pool's workers before Python 3.14's ``terminate_workers``."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    manager = getattr(pool, "_executor_manager_thread", None)  # shutdown() drops it: take it first
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        try:
            process.terminate()
        except (OSError, AttributeError, ValueError):
            pass
    for process in processes:
        try:
            process.join(5)
        except (OSError, AttributeError, ValueError, AssertionError):
            pass
    # The pool's manager thread closes its wake-up pipe as it ends; concurrent.futures' exit hook writes to
    # that pipe if it is not yet closed, and the two race (an "Exception ignored ... Bad file descriptor"
    # traceback at exit, seen once in three interrupted runs). With the workers gone the thread ends at
    # once: wait for it, so the hook finds the pipe closed. ``_executor_manager_thread`` is private too.
    if manager is not None:
        manager.join(5)


def _unusable_path(raw: str) -> Optional[str]:
    """Why a path named on the command line cannot be linted, or None."""
    if not raw:
        return "an empty path names no file (for the current folder, say '.')"
    try:
        os.stat(raw)
    except FileNotFoundError:
        return "a broken symlink" if os.path.islink(raw) else "no such file or directory"
    except OSError as error:
        import errno

        if error.errno == errno.ELOOP:
            return "a symlink loop (too many levels of symbolic links)"
        return f"cannot read: {error.strerror or error}"
    return None


def _source_of(path: str, texts: dict) -> Optional[str]:
    """The text a finding's positions refer to: the fixed text when fixes changed it, else the file's."""
    if path in texts:
        return texts[path]
    try:
        return read_source(Path(path).read_bytes())[0]
    except (OSError, SyntaxError, UnicodeDecodeError, LookupError):
        return None


def run_check(args) -> int:
    from inplace_lint.engine.config import (
        ConfigError,
        SettingsResolver,
        iter_python_files,
        load_settings,
        validate_codes,
    )

    def note(message: str) -> None:
        if not args.quiet:
            print(message, file=sys.stderr)

    overrides = {
        "select": args.select,
        "ignore": args.ignore,
        "exclude": tuple(args.exclude) if args.exclude is not None else None,
        "extend_exclude": tuple(args.extend_exclude) if args.extend_exclude is not None else None,
        "assume_params_are_tensors": args.assume_params_are_tensors,
        "whole_program": args.whole_program,
    }
    try:
        for flag in ("select", "ignore"):
            if getattr(args, flag) is not None:
                validate_codes(getattr(args, flag), f"--{flag}")
        if args.config is not None:
            load_settings(args.config)
    except ConfigError as error:
        print(f"inplace-lint: error: {error}", file=sys.stderr)
        return EXIT_ERROR
    resolver = SettingsResolver(explicit=args.config, overrides=overrides)
    fix, diff, unsafe = args.fix, args.diff, args.unsafe_fixes
    output_format = args.output_format or ("full" if is_terminal(sys.stdout) else "concise")
    human = output_format in ("full", "concise")
    if diff and not human:
        print(
            f"inplace-lint: error: --diff prints a unified diff; it cannot be combined with "
            f"--output-format {output_format} (--fix --output-format {output_format} reports what remains)",
            file=sys.stderr,
        )
        return EXIT_ERROR

    results: List[FileResult] = []
    errors: List[FileError] = []
    stdin_mode = "-" in args.paths
    try:
        if stdin_mode:
            if len(args.paths) > 1:
                print("inplace-lint: error: '-' (stdin) cannot be combined with other paths", file=sys.stderr)
                return EXIT_ERROR
            display = args.stdin_filename or "-"
            anchor = Path(args.stdin_filename) if args.stdin_filename else Path.cwd()
            settings = resolver.for_path(anchor.parent if args.stdin_filename else anchor)
            try:
                source, _ = read_source(sys.stdin.buffer.read())
            except (SyntaxError, UnicodeDecodeError, LookupError) as error:
                errors.append(FileError(display, f"cannot decode: {error}"))
            else:
                cache = _make_cache(args, fix or diff)
                linter = cache.linter(_engine_lint) if cache is not None else None
                results.append(
                    check_source(source, display, settings, fix=fix, unsafe=unsafe, diff=diff, linter=linter)
                )
        else:
            paths = []
            for raw in args.paths or ["."]:  # as Ruff: no path checks the working directory
                problem = _unusable_path(raw)
                if problem is not None:
                    errors.append(FileError(raw or "''", problem))
                else:
                    paths.append(Path(raw))
            unreadable: List[Tuple[str, str]] = []
            files = list(
                iter_python_files(
                    paths, resolver, force_exclude=args.force_exclude,
                    respect_gitignore=args.respect_gitignore, errors=unreadable,
                )
            )
            errors.extend(FileError(path, message) for path, message in unreadable)
            results.extend(_check_files(files, args, fix=fix and not diff, unsafe=unsafe, diff=diff))
    except ConfigError as error:
        print(f"inplace-lint: error: {error}", file=sys.stderr)
        return EXIT_ERROR

    findings: List[Finding] = []
    fixed = 0
    changed_files = 0
    for result in results:
        if result.error:
            errors.append(result.error)
        findings.extend(result.findings)
        fixed += result.fixed
        changed_files += result.new_source is not None
        if result.note:
            note(result.note)
    for error in errors:
        print(error.render(), file=sys.stderr)

    out = sys.stdout
    if stdin_mode and fix and not diff:
        # As Ruff does: the fixed text goes to stdout, the remaining findings to stderr.
        # Text that could not be linted is echoed unchanged, so an editor never loses a buffer.
        if results:
            new_source = results[0].new_source
            sys.stdout.write(new_source if new_source is not None else source)
            sys.stdout.flush()
        out = sys.stderr

    if diff:
        for result in results:
            if result.diff:
                sys.stdout.write(result.diff)
    elif args.statistics:
        from inplace_lint.adapters.output import format_statistics

        out.write(format_statistics(findings, output_format, unsafe))
    elif output_format == "full":
        from inplace_lint.adapters.terminal import format_full, use_color

        texts = {r.display: r.new_source for r in results if r.new_source is not None}
        if stdin_mode and results:
            texts.setdefault(results[0].display, source)
        color = use_color(args.color, out)
        shown = format_full(findings, lambda path: _source_of(path, texts), color, unsafe)
        out.write(shown + ("\n" if findings else ""))
    else:
        from inplace_lint.adapters.output import render

        out.write(render(findings, output_format, errors))
    if args.show_fixes:
        from inplace_lint.adapters.terminal import format_fixes_applied, format_fixes_available

        if fix or diff:
            names = {f.code: f.name for r in results for f in r.findings}
            from inplace_lint.rules import RULES

            names.update({code: rule.name for code, rule in RULES.items()})
            shown = format_fixes_applied({r.display: r.fixed_codes for r in results}, names, diff)
        else:
            shown = format_fixes_available(findings)
        (out if human and not diff else sys.stderr).write(shown)
    out.flush()

    if not results and not errors:
        note("inplace-lint: no Python files to check")
    elif diff or fix:
        from inplace_lint.adapters.terminal import fix_summary

        note(fix_summary(fixed, findings, unsafe, changed_files, diff))
    elif human and not args.statistics and (findings or not errors):
        from inplace_lint.adapters.terminal import check_summary

        for line in check_summary(findings, unsafe):
            note(line)

    if errors:
        return EXIT_ERROR
    if diff:
        return EXIT_FINDINGS if changed_files and not args.exit_zero else EXIT_CLEAN
    if findings and not args.exit_zero:
        return EXIT_FINDINGS
    return EXIT_CLEAN
