"""The flake8 plugin: ``AGI`` findings inside a flake8 run.

flake8 runs every installed plugin on every file, so this must be cheap when a file has nothing for us
(the engine's substring prefilter rejects it before any parse) and must never abort the run: a file we
cannot lint yields nothing here, and one line on stderr says why. flake8 applies ``# noqa``, ``--select``,
``--extend-ignore`` and ``per-file-ignores`` itself.

Options (command line, or ``[flake8]`` in setup.cfg / tox.ini / .flake8)::

    --inplace-lint-assume-params-are-tensors=BOOL   (config: inplace-lint-assume-params-are-tensors)
    --inplace-lint-whole-program=BOOL               (config: inplace-lint-whole-program)
"""

from __future__ import annotations

import ast
import sys
from typing import Any, Iterator, List, Tuple

from inplace_lint import __version__
from inplace_lint.model.findings import LintError, LintOptions


def _parse_bool(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    lowered = str(value).strip().lower()
    if lowered in ("1", "true", "yes", "on"):
        return True
    if lowered in ("0", "false", "no", "off"):
        return False
    raise ValueError(f"expected true or false, got {value!r}")


class InplaceLintChecker:
    name = "inplace-lint"
    version = __version__

    assume_params_are_tensors = False
    whole_program = False

    def __init__(self, tree: ast.AST, filename: str, lines: List[str]):
        # flake8's own ``ast`` tree (free to us) decides which function bodies LibCST must parse at all
        # (inplace_lint.syntax.select); ``lines`` is flake8's own decoding, which also covers stdin.
        self.tree = tree
        self.filename = filename
        self.lines = lines

    @classmethod
    def add_options(cls, option_manager) -> None:
        option_manager.add_option(
            "--inplace-lint-assume-params-are-tensors",
            type=_parse_bool,
            default=False,
            metavar="BOOL",
            parse_from_config=True,
            help="inplace-lint: treat every function's parameters as tensors that may require grad, not only a "
            "module method's or what a call passes "
            "(default: %(default)s)",
        )
        option_manager.add_option(
            "--inplace-lint-whole-program",
            type=_parse_bool,
            default=False,
            metavar="BOOL",
            parse_from_config=True,
            help="inplace-lint: lint each file with the definitions it imports from its project "
            "(default: %(default)s)",
        )

    @classmethod
    def parse_options(cls, options) -> None:
        cls.assume_params_are_tensors = _parse_bool(
            getattr(options, "inplace_lint_assume_params_are_tensors", False)
        )
        cls.whole_program = _parse_bool(getattr(options, "inplace_lint_whole_program", False))

    def run(self) -> Iterator[Tuple[int, int, str, type]]:
        source = "".join(self.lines)
        try:
            from inplace_lint.engine.prefilter import might_have_hazard

            if not self.whole_program and not might_have_hazard(source):
                # (linked with its program, the hazard may come with what it imports: the engine looks)
                return  # the rest of the engine (LibCST, the analysis) is loaded only past this
            from inplace_lint.engine.core import lint_source

            options = LintOptions(assume_params_are_tensors=self.assume_params_are_tensors,
                                  whole_program=self.whole_program)
            tree = self.tree if isinstance(self.tree, ast.Module) else None
            findings = lint_source(source, self.filename, options, tree=tree)
        except LintError as error:
            from inplace_lint.adapters.output import file_error_from

            self._warn(file_error_from(self.filename, error).render())
            return
        except Exception as error:  # never abort the user's flake8 run
            self._warn(
                f"inplace-lint: {self.filename}: internal error ({type(error).__name__}: {error}); "
                "please report it"
            )
            return
        for finding in findings:
            # flake8 adds 1 to the column itself; the message starts with the code, as flake8 requires.
            message = " ".join(finding.message.split())
            yield finding.start.line, finding.start.column, f"{finding.code} {message}", type(self)

    @staticmethod
    def _warn(message: str) -> None:
        try:
            print(message, file=sys.stderr, flush=True)
        except Exception:
            pass
