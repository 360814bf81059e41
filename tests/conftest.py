"""Shared pytest setup. Nothing here imports torch: only the fixture runtime tests need it, and they run
it in subprocesses (see fixture_support.py)."""

from __future__ import annotations

import signal
import sys
import threading
from pathlib import Path

import pytest

TESTS_DIR = Path(__file__).resolve().parent
if str(TESTS_DIR) not in sys.path:  # `import fixture_support` whatever the import mode
    sys.path.insert(0, str(TESTS_DIR))

# A suite started in the background by a shell without job control (`nohup ... &`, some CI runners)
# inherits Ctrl-C ignored, and so would every program the Ctrl-C tests start: Python keeps an ignored
# SIGINT ignored. Those tests stand for a user at a terminal, where it is not.
if threading.current_thread() is threading.main_thread() and signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_addoption(parser):
    parser.addoption("--run-slow", action="store_true", default=False, help="also run tests marked slow")


def pytest_collection_modifyitems(config, items):
    if config.getoption("--run-slow"):
        return
    skip_slow = pytest.mark.skip(reason="slow: pass --run-slow to run")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip_slow)
