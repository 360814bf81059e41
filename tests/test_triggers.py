"""The in-place triggers and alias shapes, declared once (inplace_lint/syntax/triggers.py): both trees read
them alike, the tables cover what the syntax has, and the torch names in them exist in torch."""

from __future__ import annotations

import ast

import libcst as cst
import pytest

from inplace_lint.analysis.parameters import CST_SHAPES
from inplace_lint.engine.core import might_have_hazard
from inplace_lint.knowledge import load
from inplace_lint.syntax import triggers
from inplace_lint.syntax.names import AUG_SYMBOLS
from inplace_lint.syntax.select import AST_SHAPES

LOOPS = [
    "for p in model.parameters(): pass",
    "for name, p in model.named_parameters(): pass",
    "for p, q in zip(model.parameters(), other.parameters()): pass",
    "for t, s in zip(teacher.parameters(), model.named_parameters()): pass",
    "for name, t in model.state_dict().items(): pass",
    "for t in model.state_dict().values(): pass",
    "for t in model.state_dict(keep_vars=True).values(): pass",
    "for m in model.modules(): pass",
    "for name, m in model.named_modules(): pass",
    "for m in model.children(): pass",
    "for name, m in model.named_children(): pass",
    "for (a, b) in model.named_parameters(): pass",
    "for a, b, c in model.named_modules(): pass",
    "for p in self.parameters(): pass",
    "for p in other.parameters(): pass",
    "for p in model.weight.parameters(): pass",
    "for i in range(3): pass",
]
ALIASES = ["x = model", "x = other", "x = model if flag else other", "x = other if flag else model",
           "x = f(model)", "x = (model)"]


def _ast_for(source: str):
    return ast.parse(source).body[0]


def _cst_for(source: str):
    return cst.parse_module(source).body[0]


@pytest.mark.parametrize("source", LOOPS)
def test_loop_shapes_read_alike_on_both_trees(source):
    params = {"model", "self"}
    a, c = _ast_for(source), _cst_for(source)
    assert triggers.parameter_loop_names(a.iter, a.target, params, AST_SHAPES) == \
        triggers.parameter_loop_names(c.iter, c.target, params, CST_SHAPES)
    assert triggers.module_loop_names(a.iter, a.target, params, AST_SHAPES) == \
        triggers.module_loop_names(c.iter, c.target, params, CST_SHAPES)


def test_loop_shapes_bind_what_they_walk():
    def bound(source):
        node = _cst_for(source)
        return (triggers.parameter_loop_names(node.iter, node.target, {"model"}, CST_SHAPES),
                triggers.module_loop_names(node.iter, node.target, {"model"}, CST_SHAPES))

    assert bound(LOOPS[1]) == ({"p": "model"}, {})
    assert bound(LOOPS[2]) == ({"p": "model"}, {})
    assert bound(LOOPS[4]) == ({"t": "model"}, {})
    assert bound(LOOPS[6]) == ({"t": "model"}, {})  # state_dict(keep_vars=True): the same tensors
    assert bound(LOOPS[8]) == ({}, {"m": "model"})


@pytest.mark.parametrize("source", ALIASES)
def test_alias_shapes_read_alike_on_both_trees(source):
    owner = {"model": "model"}
    a, c = _ast_for(source), _cst_for(source).body[0]
    assert triggers.alias_source(a.value, owner, AST_SHAPES) == triggers.alias_source(c.value, owner, CST_SHAPES)


def test_every_augmented_assignment_is_declared():
    libcst_operators = {kind for kind in vars(cst).values()
                        if isinstance(kind, type) and issubclass(kind, cst.BaseAugOp) and kind is not cst.BaseAugOp}
    assert set(AUG_SYMBOLS) == libcst_operators
    ast_operators = {kind.__name__ for kind in ast.operator.__subclasses__()}
    assert {operator for operator, _ in triggers.AUGMENTED_ASSIGNMENTS.values()} == ast_operators
    assert set(load().augmented_operators) <= set(triggers.AUGMENTED_ASSIGNMENTS)


def test_the_prefilter_sees_every_trigger():
    spellings = [f"x {symbol} y" for symbol in triggers.AUGMENTED_ASSIGNMENTS]
    spellings += [f"f(x, {triggers.INPLACE_KEYWORD}=True)", f"torch.add(a, b, {triggers.OUT_KEYWORD}=x)",
                  f"nn.Embedding(3, 4, {triggers.MAX_NORM_KEYWORD}=1.0)", "x[0] = 1", "x.add_(1)",
                  "p.requires_grad = False", "nn.ReLU(True)"]
    spellings += [f"opt.{name}()" for name in (triggers.OPTIMIZER_STEP, triggers.LOAD_STATE_DICT)]
    for spelling in spellings:
        assert might_have_hazard("import torch\n" + spelling + "\n"), spelling
    assert not might_have_hazard("import torch\nx = y + 1\n")


def test_the_selections_inplace_cue_covers_the_knowledge():
    knowledge = load()
    assert all(triggers.may_write_in_place(name) for name in knowledge.inplace_methods)
    assert triggers.KNOWN_DUNDERS <= triggers.inplace_dunders()
    assert {"ReLU", "dropout"} <= triggers.inplace_flag_callees()


def test_torch_names_exist():
    torch = pytest.importorskip("torch")
    import importlib

    for name in triggers.KNOWN_DUNDERS - {"__imatmul__"}:
        assert hasattr(torch.Tensor, name), name
    # torch defines no __imatmul__ (``x @= y`` rebinds x to ``x @ y``): counting it only keeps more
    assert not hasattr(torch.Tensor, "__imatmul__")
    for name in triggers.AUTOGRAD_CALLER_FUNCTIONS | {triggers.BACKWARD_FUNCTION}:
        module, _, attribute = name.rpartition(".")
        assert callable(getattr(importlib.import_module(module), attribute)), name
    short = {name.rsplit(".", 1)[-1] for name in triggers.AUTOGRAD_CALLER_FUNCTIONS}
    modules = [importlib.import_module(prefix.rstrip(".")) for prefix in triggers.AUTOGRAD_CALLER_MODULES]
    for name in triggers.AUTOGRAD_CALLER_SHORT_NAMES - short:
        assert any(callable(getattr(module, name, None)) for module in modules), name
    assert callable(getattr(torch.Tensor, triggers.BACKWARD_METHOD))
    for walk in list(triggers.MODULE_WALKS) + list(triggers.PARAMETER_WALKS) + [triggers.LOAD_STATE_DICT,
                                                                                triggers.REGISTER_FORWARD_HOOK]:
        assert callable(getattr(torch.nn.Module, walk)), walk
    assert callable(getattr(torch.optim.Optimizer, triggers.OPTIMIZER_STEP))
    assert all(hasattr(torch.nn.Linear(2, 2), name) for name in triggers.LAYER_PARAMETERS)
