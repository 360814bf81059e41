"""Only some tensor inputs carry grad into an op's result: ``gather``'s input, not its index;
``masked_fill``'s input, not its mask (knowledge ``grad_inputs``, measured by
tools/knowledge/probes.py with one input at a time requiring grad). A value computed from an index
alone then records nothing, whatever the index is declared as."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from inplace_lint import lint_source
from inplace_lint.knowledge import load

KNOWLEDGE = load()

LOOKUP = textwrap.dedent("""
    import torch

    def degree_weights(edges: torch.Tensor, table: torch.Tensor):
        counts = torch.gather(table, 0, edges)
        squared = counts.pow(2)
        counts += 1
        return squared
""")


def test_measured_carriers():
    assert KNOWLEDGE.lookup("torch.gather").grad_inputs == ("input",)
    assert KNOWLEDGE.lookup("torch.Tensor.masked_fill").grad_inputs == ("self",)
    assert KNOWLEDGE.lookup("torch.Tensor.scatter_add_").grad_inputs == ("self", "src")
    assert KNOWLEDGE.lookup("torch.nn.functional.embedding").grad_inputs == ("weight",)
    assert KNOWLEDGE.lookup("torch.mul").grad_inputs is None  # every tensor input does


def test_an_index_alone_records_nothing():
    source = LOOKUP.replace("table: torch.Tensor", "table=None").replace(
        "counts = torch.gather(table, 0, edges)", "counts = torch.gather(torch.arange(1.0, 6.0), 0, edges)")
    assert lint_source(source) == []


def test_the_looked_up_table_still_carries_grad():
    findings = lint_source(LOOKUP)
    assert [(f.code, f.start.line) for f in findings] == [("AGI001", 7)]
    assert "'table'" in findings[0].message


RUN = """
import torch
{source}
table = torch.arange(1.0, 6.0, requires_grad={grad})
scale = torch.ones(3, requires_grad=True)
(scale * degree_weights(torch.tensor([0, 2, 4]), table)).sum().backward()
"""


@pytest.mark.parametrize("grad, raises", [(False, False), (True, True)])
def test_torch_agrees(grad, raises):
    pytest.importorskip("torch")
    run = subprocess.run([sys.executable, "-c", RUN.format(source=LOOKUP, grad=grad)],
                         capture_output=True, text=True, timeout=120)
    assert (run.returncode != 0) == raises, run.stderr
    if raises:
        assert "modified by an inplace operation" in run.stderr
