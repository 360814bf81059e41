"""``pytest --inplace-explain``: run each test under ``inplace-lint explain``'s tracer and add the
explanation of an in-place autograd error to the failing test's report.

Registered as a ``pytest11`` entry point, so pytest loads it in every project that installs inplace-lint:
without the flag it only adds the option (it imports neither torch nor the tracer, and wraps nothing).
"""

from __future__ import annotations

import pytest

SECTION = "inplace-lint explain"


def pytest_addoption(parser):
    group = parser.getgroup("inplace-lint")
    group.addoption(
        "--inplace-explain",
        action="store_true",
        default=False,
        help="run each test's call under inplace-lint's tracer (imports torch); when a test fails with one "
        "of torch's in-place autograd errors, its report names the line that made the write",
    )


def pytest_configure(config):
    if config.getoption("inplace_explain", False):
        config.pluginmanager.register(_Explainer(), "inplace-lint-explainer")


class _Explainer:
    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_call(self, item):
        import io

        from inplace_lint.explainer.session import explain

        session = explain(file=io.StringIO())
        session.__enter__()
        try:
            outcome = yield
        finally:
            session.tracer.__exit__(None, None, None)
        excinfo = outcome.excinfo
        if excinfo is not None:
            text = session.explain_error(excinfo[1])
            if text:
                item.add_report_section("call", SECTION, text)
