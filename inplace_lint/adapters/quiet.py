"""Ending quietly: a closed stdout (``inplace-lint ... | head``) and Ctrl-C, in every subcommand.

Ctrl-C ends a command with exit 130 (the shell's convention for SIGINT) and no traceback; a closed pipe
ends it with exit 2 and no "Exception ignored ... BrokenPipeError" at the interpreter's exit.
"""

from __future__ import annotations

import logging
import os
import signal
import sys
from typing import Callable

EXIT_INTERRUPTED = 130

# the loggers through which pygls (and the thread pool and event loop it runs on) report a write to a
# client that went away, with a traceback each
_CLIENT_GONE_LOGGERS = ("pygls.protocol.json_rpc", "pygls.protocol.language_server", "pygls.server",
                        "pygls.io_", "concurrent.futures", "asyncio")


def quiet_closed_stdout() -> None:
    """Point stdout at /dev/null, so that the interpreter's final flush of what the closed pipe did not
    take raises nothing."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    except (OSError, ValueError, AttributeError):
        pass


def _no_broken_pipe_traceback(record: logging.LogRecord) -> bool:
    """Drop a log record whose exception is (or was raised while handling) a BrokenPipeError."""
    error = record.exc_info[1] if record.exc_info else None
    while error is not None:
        if isinstance(error, BrokenPipeError):
            return False
        error = error.__cause__ or error.__context__
    return True


def serve_quietly(serve: Callable[[], int]) -> int:
    """Run the language server: its own exit status when the client says exit (1 after an ``exit``
    without ``shutdown``), 130 on Ctrl-C. The editor closing the
    pipe is how a client goes away: pygls says so in one line, its tracebacks of it are dropped."""
    for name in _CLIENT_GONE_LOGGERS:
        logging.getLogger(name).addFilter(_no_broken_pipe_traceback)
    interrupted = []

    def on_interrupt(signum, frame):  # pygls stops quietly on Ctrl-C; the exit status still says so
        interrupted.append(signum)
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGINT, on_interrupt)
    try:
        status = serve()
    finally:
        signal.signal(signal.SIGINT, previous)
    return EXIT_INTERRUPTED if interrupted else status
