"""Facts the code states that decide a finding before any guess about grad (issue "Evidence before alarm"):
a docstring's parameter types (``syntax.docstrings``), a helper method whose return is built from constants,
a one-operand ``einsum``, the flags every call with grad on passes, a flag's value along one path, and a loop
over distinct tensors taken as its rounds unrolled. Each case pairs the fact, which clears the finding, with
the look-alike still flagged; the real-code shapes are safe fixtures (``tests/fixtures/safe/``)."""

from __future__ import annotations

import textwrap

import libcst as cst
import pytest

from inplace_lint import LintOptions, lint_source
from inplace_lint.syntax.docstrings import declared_non_tensors


def _codes(source: str, **options):
    options = LintOptions(**options) if options else None
    return [(f.code, f.line) for f in lint_source(textwrap.dedent(source), options=options)]


def _function(text: str) -> cst.FunctionDef:
    return cst.parse_module(textwrap.dedent(text)).body[0]


@pytest.mark.parametrize("doc, expected", [
    ('"""Args:\n    sigma (float): std\n    x (Tensor): input\n"""', {"sigma"}),
    ('"""\n    Arguments\n    ---------\n    sigma: float\n        Std\n    x: torch.Tensor\n"""', {"sigma"}),
    ('"""\n    Parameters\n    ----------\n    sigma : float, optional\n    x : array_like\n"""', {"sigma"}),
    ('""":param float sigma: std\n:type x: torch.Tensor\n"""', {"sigma"}),
    ('"""Args:\n    sigma (float or Tensor): std\n    x: the input tensor\n"""', set()),
    ('"""Args:\n    sigma (list of int): sizes\n    x (int | None): n\n"""', {"sigma", "x"}),
    ('"""sigma: list of tensors"""', set()),
    ("pass", set()),
])
def test_docstring_declared_types(doc, expected):
    body = doc if doc == "pass" else doc.replace("\n", "\n    ")
    function = _function(f"def f(x, sigma):\n    {body}\n    return x\n")
    assert declared_non_tensors(function, frozenset({"x", "sigma"})) == expected


KERNEL = """
import torch
from torch import nn

class Loss(nn.Module):
    def kernel(self, size, sigma):
        \"\"\"Args:
            sigma ({kind}): std
        \"\"\"
        g = torch.arange(size, dtype=torch.float32) ** 2
        g = (-g / (2 * sigma**2)).exp()
        g /= g.sum()
        return g
"""


def test_a_parameter_documented_as_a_float_is_no_grad_tensor():
    assert _codes(KERNEL.format(kind="float")) == []
    assert _codes(KERNEL.format(kind="Tensor")) == [("AGI001", 12)]


OFFSET = """
import torch

class Crop(Base):
    def offset(self, x: torch.Tensor):
        return {returned}

    def transform(self, x: torch.Tensor) -> torch.Tensor:
        t = x * 2
        o = self.offset(x)
        t[:, 0] += (t[:, :2] @ o).squeeze(-1)
        return t
"""


def test_a_method_returning_a_constant_returns_no_grad():
    assert _codes(OFFSET.format(returned="torch.ones(2, 1).to(x.device)")) == []
    assert _codes(OFFSET.format(returned="x[:, :2, None] * 2")) == [("AGI001", 11)]


EINSUM = """
import torch

def pool(s: torch.Tensor, w: torch.Tensor):
    a = s @ s.transpose(1, 2)
    trace = torch.einsum({operands})
    a[:, 0, 0] = 0
    return trace
"""


def test_a_one_operand_einsum_saves_nothing():
    assert _codes(EINSUM.format(operands="'ijj->i', a")) == []
    assert _codes(EINSUM.format(operands="'ijk,ikl->ijl', a, w")) == [("AGI001", 7)]


CONVERT = """
import torch
from torch import nn

def convert(model, to_engine=True):
    for name, module in model.named_children():
        if isinstance(module, nn.Linear) and to_engine:
            new = nn.Linear(4, 4)
            new.weight.copy_(module.weight)
        else:
            convert(module, to_engine=to_engine)

def prepare(model):
    {context}
        convert(model)

def unwrap(model):
    convert(model, to_engine={flag})
"""


@pytest.mark.parametrize("context, flag, expected", [
    ("with torch.no_grad():", "False", []),  # the only call with grad on turns the copying branch off
    ("if True:", "False", [("AGI002", 9)]),  # a call with grad on takes the default, True
    ("with torch.no_grad():", "True", [("AGI002", 9)]),
])
def test_flags_the_calls_with_grad_on_pass_decide_branches(context, flag, expected):
    assert _codes(CONVERT.format(context=context, flag=flag)) == expected


TAPS = """
import torch

def taps(guide: torch.Tensor, in_place: bool, scale):
    diff = guide * 2 - guide
    d = diff.square_() if in_place else diff.square()
    if in_place:
        w = {write}
    else:
        w = (scale * d).exp()
    return w
"""


@pytest.mark.parametrize("write, expected", [
    ("d.mul_(scale)", []),  # the path that wrote in place never saved: square_ saves nothing
    ("diff.add_(scale)", []),
])
def test_a_flag_keeps_its_value_along_a_path(write, expected):
    assert _codes(TAPS.format(write=write)) == expected


def test_a_flag_rebound_between_its_branches_is_no_flag():
    source = TAPS.format(write="d.mul_(scale)").replace("    if in_place:\n", "    in_place = not in_place\n"
                                                        "    if in_place:\n")
    assert _codes(source) == [("AGI001", 9)]


LOOP = """
import torch

def loss(pred: torch.Tensor):
    h = pred * 2
    items = {items}
    total = 0
    for g in items:
        g *= 2.0
        total = total + (g ** 2).sum()
    {after}
    return total
"""


@pytest.mark.parametrize("items, after, expected", [
    ("[pred.diff(dim=d) for d in range(2, 4)]", "", []),  # each round's g is another tensor
    ("[h, h]", "", [("AGI001", 9)]),  # one tensor listed twice
    ("[h[:, 0], h[:, 1]]", "", [("AGI001", 9)]),  # views of one tensor share its version counter
    ("[pred.diff(dim=d) for d in range(2, 4)]", "items[0].add_(1)", [("AGI001", 11)]),  # after the loop
])
def test_a_loop_over_distinct_tensors_is_its_rounds_unrolled(items, after, expected):
    assert _codes(LOOP.format(items=items, after=after)) == expected


EMA = """
import copy
import torch

class EMA:
    def __init__(self, model):
        self.model = model
        self.ema_model = copy.deepcopy(model)
        for param in self.ema_model.parameters():
            {freeze}

    def update(self):
        for ema_p, p in zip(self.ema_model.parameters(), self.model.parameters()):
            ema_p.mul_(0.9).add_(p.data, alpha=0.1)
"""


@pytest.mark.parametrize("freeze, expected", [
    ("param.detach_()", []),  # a leaf detached in place requires no grad
    ("param.requires_grad_(False)", []),
    ("param.data.mul_(1)", [("AGI002", 14)]),
])
def test_a_copy_detached_in_place_is_frozen(freeze, expected):
    assert _codes(EMA.format(freeze=freeze)) == expected
