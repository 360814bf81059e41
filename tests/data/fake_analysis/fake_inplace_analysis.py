"""A stand-in for ``inplace_lint.analysis`` used by the adapter tests (CLI, flake8, LSP, pre-commit).

The adapters only format and act on findings, so their tests need findings that are known exactly and do
not move when the real analysis improves. This module finds three textual patterns:

    b *= b        AGI001, saved by the same statement, safe fix ``b = b * b``
    b **= b       the same, only with ``assume_params_are_tensors`` (to show that options reach the
                  analysis: the opt-in level reports what rests on an assumption)
    x.mul_(y)     AGI001, unsafe fix ``x = x.mul(y)``
    x.zero_()     AGI002, no fix

Install it in-process with :func:`install` (or ``monkeypatch.setitem(sys.modules, ...)``), or in a
subprocess by putting this folder on PYTHONPATH: its ``sitecustomize.py`` calls :func:`install`.
"""

from __future__ import annotations

import re
import sys
import types

SQUARE = re.compile(r"\b(?P<name>[A-Za-z_]\w*) \*= (?P=name)\b")
POWER = re.compile(r"\b(?P<name>[A-Za-z_]\w*) \*\*= (?P=name)\b")
MUL_ = re.compile(r"\b(?P<name>[A-Za-z_]\w*)\.mul_\((?P<arg>[A-Za-z_]\w*)\)")
ZERO_ = re.compile(r"\b(?P<name>[A-Za-z_]\w*)\.zero_\(\)")


def analyze_module(module, source, path, options, parsed_text=None, positions=None):
    from inplace_lint.model.findings import Edit, Evidence, Finding, Fix, Position

    findings = []
    for number, line in enumerate(re.split(r"\r\n|\r|\n", source), start=1):
        if line.lstrip().startswith("#"):
            continue
        # ``b **= b`` stands in for an option-dependent result: a finding resting on an assumption.
        squares = list(SQUARE.finditer(line))
        if options.assume_params_are_tensors:
            squares += POWER.finditer(line)
        for m in squares:
            name = m.group("name")
            start, end = Position(number, m.start()), Position(number, m.end())
            findings.append(
                Finding(
                    code="AGI001",
                    name="saved-tensor-modified-inplace",
                    message=f"`{name} *= {name}` modifies `{name}` in place, but `{name} *= {name}` saved it "
                    f"for backward (line {number}); backward will raise",
                    path=path,
                    start=start,
                    end=end,
                    evidence=Evidence(
                        inplace_op="*=",
                        tensor=name,
                        saving_op=f"{name} *= {name}",
                        saving_line=number,
                        saving_column=m.start(),
                        role="input",
                        argument="self",
                        runtime_error="RuntimeError: one of the variables needed for gradient computation",
                    ),
                    fix=Fix(
                        f"Write '{name} = {name} * {name}'",
                        "safe",
                        (Edit(start, end, f"{name} = {name} * {name}"),),
                    ),
                )
            )
        for m in MUL_.finditer(line):
            name, arg = m.group("name"), m.group("arg")
            start, end = Position(number, m.start()), Position(number, m.end())
            findings.append(
                Finding(
                    code="AGI001",
                    name="saved-tensor-modified-inplace",
                    message=f"`{name}.mul_({arg})` modifies `{name}` in place after an op saved it",
                    path=path,
                    start=start,
                    end=end,
                    evidence=Evidence(inplace_op="mul_()", tensor=name),
                    fix=Fix(
                        f"Write '{name} = {name}.mul({arg})'",
                        "unsafe",
                        (Edit(start, end, f"{name} = {name}.mul({arg})"),),
                    ),
                )
            )
        for m in ZERO_.finditer(line):
            name = m.group("name")
            findings.append(
                Finding(
                    code="AGI002",
                    name="leaf-modified-inplace",
                    message=f"`{name}.zero_()` modifies a leaf that requires grad",
                    path=path,
                    start=Position(number, m.start()),
                    end=Position(number, m.end()),
                    evidence=Evidence(inplace_op="zero_()", tensor=name),
                )
            )
    return findings


def code_positions(module, wrapper=None):
    """What the engine and the fixes take from the analysis besides findings: LibCST's positions."""
    from libcst.metadata import MetadataWrapper, PositionProvider

    return (wrapper or MetadataWrapper(module, unsafe_skip_copy=True)).resolve(PositionProvider)


def make_module() -> types.ModuleType:
    module = types.ModuleType("inplace_lint.analysis")
    module.analyze_module = analyze_module
    module.code_positions = code_positions
    module.__fake__ = True
    return module


class _Finder:
    """Serves ``inplace_lint.analysis`` from this file, ahead of the real package."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname != "inplace_lint.analysis":
            return None
        import importlib.util

        return importlib.util.spec_from_loader(fullname, self)

    def create_module(self, spec):
        return make_module()

    def exec_module(self, module):
        pass


def install() -> None:
    if not any(isinstance(finder, _Finder) for finder in sys.meta_path):
        sys.meta_path.insert(0, _Finder())
