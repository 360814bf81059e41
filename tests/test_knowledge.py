"""The op knowledge: shipped ops.json == what the installed torch says, and the facts it must hold.

Tests that need torch are skipped without it; the regeneration tests need the exact torch version
the data was generated with (torch 2.13.0).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from functools import lru_cache

import pytest

from inplace_lint import knowledge
from inplace_lint.knowledge import MODULE_PARAMS

OPS_JSON = os.path.join(os.path.dirname(knowledge.__file__), "ops.json")


@lru_cache(maxsize=None)
def shipped():
    with open(OPS_JSON, encoding="utf-8") as fh:
        return json.load(fh)


def _torch_version():
    try:
        import torch
    except ImportError:
        return None
    return torch.__version__.split("+")[0]


needs_torch = pytest.mark.skipif(_torch_version() is None, reason="torch is not installed")
same_torch = pytest.mark.skipif(
    _torch_version() != shipped()["torch_version"],
    reason=f"ops.json was generated with torch {shipped()['torch_version']}; installed: {_torch_version()}",
)

K = knowledge.load()


def saved(name, target, passed=frozenset(), numbers=frozenset(), tensors=frozenset()):
    """The ``when`` of ``target``'s save in the shipped entry (None: never saved)."""
    info = K.lookup_call(name, frozenset(passed), frozenset(numbers), frozenset(tensors))
    assert info is not None, name
    for s in info.saves:
        if s.target == target:
            return set(s.when)
    return None


def first_param(name):
    info = K.lookup(name)
    return info.tensor_params[0]


# ------------------------------------------------------------------------ regeneration (torch needed)


@lru_cache(maxsize=None)
def regenerated():
    from tools.knowledge import generate

    data, report = generate.generate()
    return data, report


@needs_torch
@same_torch
@pytest.mark.parametrize(
    "section", ["torch_version", "aten", "python", "inplace_methods", "augmented_operators"]
)
def test_regenerated_equals_shipped(section):
    data, report = regenerated()
    assert not report["failures"], report["failures"]
    assert data[section] == shipped()[section]


@needs_torch
@same_torch
def test_shipped_file_is_byte_identical_to_generator_output():
    from tools.knowledge import generate

    data, _ = regenerated()
    with open(OPS_JSON, encoding="utf-8") as fh:
        assert fh.read() == generate.dumps(data)


@needs_torch
@same_torch
def test_every_differentiable_aten_overload_present():
    from tools.knowledge import generate

    table = generate.aten_table()
    assert len(table) > 1000
    assert set(table) == set(shipped()["aten"])


# ------------------------------------------------------------------ every entry agrees with its probe


@lru_cache(maxsize=None)
def _apis():
    try:
        from tools.knowledge import surface
    except ImportError:
        return {}
    apis = {}
    for api in surface.SURFACE:
        apis[api.name] = api
        for var in surface.number_variants(api):
            apis[var.name] = var
    return apis


PYTHON_NAMES = sorted(shipped()["python"])


@needs_torch
@same_torch
@pytest.mark.parametrize("name", PYTHON_NAMES)
def test_entry_agrees_with_probe(name):
    import warnings

    from tools.knowledge import probes

    api = _apis().get(name)
    assert api is not None, f"{name} is shipped but has no surface spec to probe"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = probes.probe(api)
    entry = shipped()["python"][name]
    assert entry["probed"] is True
    assert entry["saves"] == r.saves
    assert entry.get("view_of", []) == r.view_of
    assert entry.get("may_alias", []) == r.may_alias
    assert entry["differentiable"] == r.differentiable
    assert entry.get("param_saves", []) == r.param_saves
    if entry.get("inplace"):
        assert r.modifies_bumps
        assert entry["inplace"]["saves"] == r.inplace_saves
        assert entry["inplace"]["modifies"] == api.modifies
    else:
        assert not (r.modifies_bumps and r.inplace_saves is not None)


# --------------------------------------------- the probe method matches real in-place ops (torch)


def _raises_on_backward(fn):
    import torch

    try:
        fn()
    except RuntimeError as e:
        if "modified by an inplace operation" in str(e):
            return True
        raise
    del torch
    return False


@needs_torch
def test_real_inplace_ops_match_the_version_bump_probe():
    import torch

    def leaf():
        return torch.rand(3, dtype=torch.float64, requires_grad=True)

    def mul_then_modify_untracked_factor():
        w = leaf()
        x = torch.rand(3, dtype=torch.float64)
        y = x * w
        x += 1  # x does not require grad, but mul saved it for w's gradient
        y.sum().backward()

    def mul_self_inplace_once():
        b = leaf() ** 2
        b *= b  # mul_ saves other (== b), then overwrites b
        b.sum().backward()

    def relu_then_mul():
        x = leaf().clone()
        x.relu_()
        x.mul_(2)
        x.sum().backward()

    def sin_then_mul():
        x = leaf().clone()
        x.sin_()  # keeps a private copy of the old value
        x.mul_(2)
        x.sum().backward()

    def disjoint_slice():
        x = leaf().clone()
        y = x.sin()
        x[2:].zero_()
        y.sum().backward()

    def detach_shares_counter():
        x = leaf().clone()
        y = x.exp()
        z = y.detach()
        z += 1
        y.sum().backward()

    def square_by_number():
        x = leaf().clone()
        y = x ** 2
        y += 1  # pow.Tensor_Scalar does not save its result
        y.sum().backward()

    def where_then_change_mask():
        a = leaf()
        m = torch.tensor([True, False, True])
        y = torch.where(m, a, 0.0)
        m[0] = False  # where.self keeps its condition
        y.sum().backward()

    def cross_entropy_then_change_target():
        logits = torch.rand(3, 4, dtype=torch.float64, requires_grad=True)
        t = torch.tensor([0, 1, 2])
        loss = torch.nn.functional.cross_entropy(logits, t)
        t[0] = 3  # nll_loss keeps the class indices
        loss.backward()

    def optimizer_step_before_backward(input_grad):
        m = torch.nn.Linear(3, 2).double()
        x = torch.rand(2, 3, dtype=torch.float64, requires_grad=input_grad)
        y = m(x)
        with torch.no_grad():
            m.weight.add_(1)  # linear keeps weight only for the input's gradient
        y.sum().backward()

    assert _raises_on_backward(where_then_change_mask)
    assert _raises_on_backward(cross_entropy_then_change_target)
    assert _raises_on_backward(lambda: optimizer_step_before_backward(True))
    assert not _raises_on_backward(lambda: optimizer_step_before_backward(False))
    assert saved("torch.where", "condition") and saved("torch.nn.functional.cross_entropy", "target")
    assert [s.when for s in K.lookup("torch.nn.Linear").param_saves] == [("input",)]
    assert _raises_on_backward(mul_then_modify_untracked_factor)
    assert _raises_on_backward(mul_self_inplace_once)
    assert _raises_on_backward(relu_then_mul)
    assert not _raises_on_backward(sin_then_mul)
    assert _raises_on_backward(disjoint_slice)
    assert _raises_on_backward(detach_shares_counter)
    assert not _raises_on_backward(square_by_number)


# ----------------------------------------------------------- the facts (shipped table, no torch needed)

SAVES_RESULT = [
    "torch.exp", "torch.Tensor.exp", "torch.sigmoid", "torch.Tensor.sigmoid", "torch.tanh",
    "torch.Tensor.tanh", "torch.relu", "torch.Tensor.relu", "torch.nn.functional.relu", "torch.nn.ReLU",
    "torch.sqrt", "torch.rsqrt",
    "torch.reciprocal", "torch.softmax", "torch.Tensor.softmax", "torch.nn.functional.softmax",
    "torch.log_softmax", "torch.nn.functional.log_softmax", "torch.nn.Sigmoid", "torch.nn.Tanh",
    "torch.nn.Softmax", "torch.nn.LogSoftmax",
]


@pytest.mark.parametrize("name", SAVES_RESULT)
def test_saves_result(name):
    assert saved(name, "result") == {first_param(name)}
    assert saved(name, first_param(name)) is None


SAVES_INPUT = [
    "torch.sin", "torch.cos", "torch.log", "torch.abs", "torch.Tensor.abs", "torch.square", "torch.clamp",
    "torch.Tensor.clamp", "torch.nn.functional.gelu", "torch.nn.functional.silu", "torch.nn.functional.elu",
    "torch.nn.functional.leaky_relu", "torch.nn.functional.softplus", "torch.nn.functional.mish",
    "torch.nn.functional.hardswish", "torch.nn.functional.hardtanh", "torch.nn.functional.relu6",
    "torch.nn.functional.logsigmoid", "torch.nn.functional.softsign", "torch.erf", "torch.atan", "torch.var",
    "torch.nn.functional.layer_norm", "torch.nn.functional.batch_norm", "torch.nn.functional.normalize",
    "torch.nn.GELU", "torch.nn.SiLU", "torch.nn.LayerNorm", "torch.nn.BatchNorm2d",
]


@pytest.mark.parametrize("name", SAVES_INPUT)
def test_saves_input_not_result(name):
    p = first_param(name)
    assert saved(name, p), f"{name} should save {p}"
    assert saved(name, "result") is None


def test_pow_saves_input_only_with_a_number_exponent():
    # x ** 2 (the base entries are the number-exponent forms)
    assert saved("operator.pow", "self") == {"self"}
    assert saved("operator.pow", "result") is None
    assert saved("torch.Tensor.pow", "self", numbers={"exponent"}) == {"self"}
    assert saved("torch.pow", "result") is None
    assert K.lookup("torch.Tensor.pow_").inplace.saves == ()  # x **= 2: a private copy only
    assert K.augmented_operators["**="] == "torch.Tensor.pow_"
    # with a tensor exponent torch also keeps the result (pow.Tensor_Tensor)
    assert saved("operator.pow", "result", tensors={"other"}) == {"self", "other"}
    assert saved("torch.Tensor.pow_", "result", tensors={"exponent"}) == {"self", "exponent"}


@pytest.mark.parametrize(
    "name, a, b",
    [
        ("operator.mul", "self", "other"),
        ("torch.mul", "input", "other"),
        ("torch.Tensor.mul", "self", "other"),
        ("torch.matmul", "input", "other"),
        ("operator.matmul", "self", "other"),
        ("torch.mm", "input", "mat2"),
        ("torch.bmm", "input", "mat2"),
        ("torch.nn.functional.linear", "input", "weight"),
    ],
)
def test_products_save_each_factor_for_the_other(name, a, b):
    assert saved(name, a) == {b}
    assert saved(name, b) == {a}
    assert saved(name, "result") is None


def test_x_times_x_and_division():
    # x * x: each factor saved for the other's gradient; both are x
    assert saved("operator.mul", "self") == {"other"} and saved("operator.mul", "other") == {"self"}
    # x / z saves z (needed by both gradients) and x for z's gradient
    assert saved("operator.truediv", "other") == {"self", "other"}
    assert saved("operator.truediv", "self") == {"other"}


def test_more_input_savers():
    for name in ["torch.addmm", "torch.einsum", "torch.nn.functional.conv1d", "torch.nn.functional.conv2d",
                 "torch.nn.functional.mse_loss", "torch.nn.functional.binary_cross_entropy_with_logits",
                 "torch.gather", "torch.nn.Linear", "torch.nn.Conv1d"]:
        info = K.lookup(name)
        assert any(s.target != "result" for s in info.saves), name
    assert saved("torch.nn.Linear", "input") == {MODULE_PARAMS}
    assert saved("torch.nn.functional.conv1d", "input")


@pytest.mark.parametrize(
    "name, passed",
    [
        ("torch.Tensor.max", ()),
        ("torch.max", ()),
        ("torch.norm", ()),
        ("torch.Tensor.norm", ()),
        ("torch.std", ()),
        ("torch.Tensor.std", ()),
        ("torch.prod", ()),
        ("torch.Tensor.prod", ()),
        ("torch.logsumexp", ()),
        ("torch.amax", ()),
        ("torch.Tensor.amax", ()),
    ],
)
def test_saves_input_and_result(name, passed):
    p = first_param(name)
    assert saved(name, p, passed) == {p}
    assert saved(name, "result", passed) == {p}


def test_max_with_dim_saves_only_indices():
    info = K.lookup_call("torch.Tensor.max", frozenset({"dim"}))
    assert info.name == "torch.Tensor.max#dim"
    assert [s.target for s in info.saves] == ["result"]  # the indices output
    assert K.lookup_call("torch.max", frozenset({"dim"})).name == "torch.max#dim"


SAVES_NOTHING = [
    "operator.add", "operator.sub", "operator.neg", "operator.rsub", "operator.radd", "operator.rmul",
    "operator.rtruediv", "torch.add", "torch.sub", "torch.sum", "torch.Tensor.sum", "torch.mean",
    "torch.Tensor.mean", "torch.cumsum", "torch.cat", "torch.stack", "torch.clone", "torch.Tensor.clone",
    "torch.Tensor.contiguous", "torch.Tensor.to#dtype", "torch.nn.functional.dropout", "torch.nn.Dropout",
    "torch.Tensor.view", "torch.Tensor.reshape", "torch.Tensor.transpose", "torch.Tensor.t",
    "torch.Tensor.permute", "torch.Tensor.unsqueeze", "torch.Tensor.squeeze", "torch.Tensor.expand",
    "torch.Tensor.flatten", "torch.Tensor.narrow", "torch.Tensor.select", "torch.Tensor.__getitem__",
    "torch.Tensor.detach", "torch.Tensor.diagonal",
]


@pytest.mark.parametrize("name", SAVES_NOTHING)
def test_saves_nothing(name):
    assert K.lookup(name).saves == (), name


def test_saves_nothing_the_user_holds():
    # where / masked_fill save only their mask (a user-held bool tensor!), not the data
    assert saved("torch.where", "input") is None and saved("torch.where", "other") is None
    assert saved("torch.where", "condition") == {"input", "other"}
    assert saved("torch.Tensor.masked_fill", "self") is None
    # index_select saves its index, not the input
    assert saved("torch.index_select", "input") is None
    # cross_entropy / nll keep the class targets, not the logits
    for name in ["torch.nn.functional.cross_entropy", "torch.nn.CrossEntropyLoss"]:
        assert saved(name, "input") is None and saved(name, "result") is None
    # embedding keeps the indices, not the weight
    assert saved("torch.nn.functional.embedding", "weight") is None
    # sort / topk / min(dim): only the indices output is kept ("result"), never the input
    for name, passed in [("torch.sort", ()), ("torch.topk", ()), ("torch.min", ("dim",))]:
        assert saved(name, "input", passed) is None
    # * or / by a Python number: the tensor operand is saved only for the number's gradient
    assert saved("operator.mul", "self") == {"other"}
    assert saved("operator.truediv", "self") == {"other"}
    assert saved("operator.rtruediv", "self") is None


def test_conditional_save_of_mul():
    assert saved("operator.mul", "self") == {"other"}
    assert saved("torch.Tensor.mul_", "other") == {"self"}  # b *= b raises once


VIEWS = [
    "torch.Tensor.view", "torch.Tensor.reshape", "torch.Tensor.transpose", "torch.Tensor.t",
    "torch.Tensor.permute",
    "torch.Tensor.unsqueeze", "torch.Tensor.squeeze", "torch.Tensor.expand", "torch.Tensor.flatten",
    "torch.Tensor.narrow", "torch.Tensor.select", "torch.Tensor.__getitem__", "torch.Tensor.detach",
    "torch.Tensor.diagonal", "torch.Tensor.unbind", "torch.Tensor.split", "torch.Tensor.chunk",
    "torch.transpose", "torch.reshape", "torch.flatten", "torch.squeeze", "torch.unsqueeze", "torch.narrow",
    "torch.select", "torch.permute", "torch.t", "torch.diagonal", "torch.Tensor.view_as",
    "torch.Tensor.movedim",
]


@pytest.mark.parametrize("name", VIEWS)
def test_views_share_the_version_counter(name):
    info = K.lookup(name)
    assert info.view_of == (first_param(name),)


def test_attributes():
    for name in ["torch.Tensor.T", "torch.Tensor.mT", "torch.Tensor.H", "torch.Tensor.mH"]:
        assert K.lookup(name).view_of == ("self",), name
    # .data does not share the version counter (in-place through it is invisible to autograd)
    data = K.lookup("torch.Tensor.data")
    assert data.view_of == () and data.may_alias == () and data.differentiable is False


def test_aliases_and_copies():
    for name in ["torch.Tensor.contiguous", "torch.Tensor.float", "torch.Tensor.to", "torch.Tensor.cpu"]:
        info = K.lookup(name)
        assert info.may_alias == ("self",) and info.view_of == (), name
    # probed on float32, the default dtype: .double() and .half() copy there
    for name in ["torch.Tensor.clone", "torch.Tensor.to#dtype", "torch.Tensor.__getitem__#key=tensor",
                 "torch.Tensor.double", "torch.Tensor.half"]:
        info = K.lookup(name)
        assert info.may_alias == () and info.view_of == (), name
    assert K.lookup("torch.Tensor.detach").differentiable is False
    # x[idx] with a tensor index: a fresh tensor that keeps idx
    fancy = K.lookup_call("torch.Tensor.__getitem__", tensors=frozenset({"key"}))
    assert fancy.name == "torch.Tensor.__getitem__#key=tensor"
    assert fancy.view_of == () and [s.target for s in fancy.saves] == ["key"]


def test_inplace_forms():
    relu_ = K.lookup("torch.Tensor.relu_")
    assert relu_.inplace.modifies == "self" and relu_.inplace.kwarg is None
    assert [s.target for s in relu_.inplace.saves] == ["result"]
    for name in ["torch.Tensor.exp_", "torch.Tensor.sigmoid_", "torch.Tensor.tanh_", "torch.relu_",
                 "torch.sigmoid_", "torch.nn.functional.elu_", "torch.nn.functional.leaky_relu_"]:
        assert any(s.target == "result" for s in K.lookup(name).inplace.saves), name
    for name in ["torch.Tensor.sin_", "torch.Tensor.add_", "torch.Tensor.zero_", "torch.Tensor.copy_"]:
        assert K.lookup(name).inplace.saves == (), name
    f_relu = K.lookup("torch.nn.functional.relu")
    assert f_relu.inplace.kwarg == "inplace" and f_relu.inplace.modifies == "input"
    m_relu = K.lookup("torch.nn.ReLU")
    assert m_relu.inplace.kwarg == "inplace" and m_relu.ctor_params[0] == "inplace"
    assert K.lookup("torch.nn.functional.dropout").inplace.kwarg == "inplace"
    # nn.AlphaDropout accepts inplace= but ignores it (probed)
    assert K.lookup("torch.nn.AlphaDropout").inplace is None
    setitem = K.lookup("torch.Tensor.__setitem__")
    assert setitem.inplace.modifies == "self" and setitem.inplace.saves == ()
    # x[idx] = v with a tensor index is index_put_: it keeps idx
    fancy = K.lookup_call("torch.Tensor.__setitem__", tensors=frozenset({"key"}))
    assert [s.target for s in fancy.inplace.saves] == ["key"]


def test_inplace_methods_and_augmented_operators():
    methods = K.inplace_methods
    for m in ["add_", "mul_", "sub_", "div_", "relu_", "zero_", "fill_", "copy_", "clamp_", "index_add_",
              "masked_fill_", "scatter_", "t_", "transpose_", "unsqueeze_", "resize_", "set_", "normal_"]:
        assert m in methods, m
    for m in ["requires_grad_", "share_memory_", "detach_", "apply_", "map_"]:
        assert m not in methods, m
    aug = K.augmented_operators
    assert aug["*="] == "torch.Tensor.mul_" and aug["+="] == "torch.Tensor.add_"
    assert aug["/="] == "torch.Tensor.div_" and aug["**="] == "torch.Tensor.pow_"
    assert set(aug) >= {"*=", "+=", "-=", "/=", "**=", "//=", "%=", "&=", "|=", "^=", "<<=", ">>="}
    assert "@=" not in aug  # torch.Tensor has no __imatmul__: `a @= b` rebinds a
    for target in aug.values():
        assert K.lookup(target) is not None and K.lookup(target).inplace is not None, target


@needs_torch
def test_max_norm_renormalises_the_embedding_in_place():
    import torch

    assert K.lookup("torch.nn.functional.embedding").writes_given == ("max_norm", "weight")
    for name in ("torch.nn.Embedding", "torch.nn.EmbeddingBag"):
        assert K.lookup(name).writes_given == ("max_norm", "@param:weight"), name
    assert K.lookup("torch.nn.Linear").writes_given is None
    # what the entries say, on torch itself: a lookup bumps the weight's version only with max_norm
    rows = torch.tensor([1, 2])
    for max_norm, bumps in ((None, False), (0.5, True)):
        embedding = torch.nn.Embedding(5, 4, max_norm=max_norm)
        before = embedding.weight._version
        embedding(rows)
        assert (embedding.weight._version != before) is bumps, max_norm


def test_module_parameters_saved():
    # optimizer.step() before backward modifies these
    assert {s.target for s in K.lookup("torch.nn.Linear").param_saves} == {"weight"}
    assert {s.target for s in K.lookup("torch.nn.Conv2d").param_saves} == {"weight"}


# --------------------------------------------------------------------------- coverage and structure


def test_coverage():
    data = shipped()
    python = data["python"]
    assert len(python) >= 250
    assert all(e.get("probed") is True for e in python.values())
    kinds = {e["kind"] for e in python.values()}
    assert kinds == {"function", "method", "operator", "module", "attribute"}
    for name in ["operator.mul", "operator.truediv", "operator.add", "operator.sub", "operator.pow",
                 "operator.matmul", "operator.neg", "operator.rtruediv", "operator.rsub", "operator.rpow",
                 "operator.rmul", "torch.Tensor.__getitem__", "torch.nn.MultiheadAttention", "torch.nn.LSTM",
                 "torch.nn.GRU", "torch.nn.RNN", "torch.nn.Embedding", "torch.nn.MSELoss",
                 "torch.nn.CrossEntropyLoss", "torch.nn.InstanceNorm2d", "torch.nn.ConvTranspose2d",
                 "torch.nn.Bilinear", "torch.nn.Hardswish", "torch.nn.ReLU6", "torch.nn.CELU",
                 "torch.nn.Mish",
                 "torch.nn.Softplus", "torch.nn.GroupNorm", "torch.nn.BatchNorm1d", "torch.nn.BatchNorm3d",
                 "torch.nn.Dropout2d", "torch.einsum", "torch.bmm", "torch.Tensor.to", "torch.Tensor.float"]:
        assert name in python, name
    # every Tensor method that modifies self has an entry
    for m in data["inplace_methods"]:
        assert "torch.Tensor." + m in python, m
    assert len(data["aten"]) > 1000


@needs_torch
def test_every_inplace_spelling_of_tensor_has_an_entry():
    import torch

    names = [
        n for n in dir(torch.Tensor) if n.endswith("_") and not n.endswith("__") and not n.startswith("_")
    ]
    missing = [n for n in names if K.lookup("torch.Tensor." + n) is None]
    assert not missing
    # named like in-place ops, probed: they do not move the version counter
    for n in ["apply_", "map_", "map2_", "share_memory_", "requires_grad_", "detach_"]:
        assert K.lookup("torch.Tensor." + n).inplace is None, n


def test_entries_are_well_formed():
    for name in shipped()["python"]:
        info = K.lookup(name)
        assert info is not None
        tensor_params = set(info.tensor_params)
        assert tensor_params <= set(info.params) | set(info.kwonly), name
        allowed_when = tensor_params | {MODULE_PARAMS}
        saves = list(info.saves) + list(info.param_saves) + list(info.inplace.saves if info.inplace else ())
        for s in saves:
            assert set(s.when) <= allowed_when and s.when, (name, s)
        for s in list(info.saves) + list(info.inplace.saves if info.inplace else ()):
            assert s.target == "result" or s.target in tensor_params, (name, s)
        assert set(info.view_of) <= tensor_params and set(info.may_alias) <= tensor_params, name
        if info.inplace:
            assert info.inplace.modifies in tensor_params, name
            if info.inplace.kwarg:
                names = info.ctor_params if info.kind == "module" else info.params + info.kwonly
                assert info.inplace.kwarg in names, name
        if info.writes_given:
            keyword, target = info.writes_given
            assert keyword in (info.ctor_params if info.kind == "module" else info.params + info.kwonly), name
            assert target.startswith("@param:") if info.kind == "module" else target in tensor_params, name
        if "#" in name:
            base, _, param = name.partition("#")
            param = param.split("=")[0]
            assert K.lookup(base) is not None, name
            assert param in info.params + info.kwonly, name


def test_file_is_small_and_sorted():
    assert os.path.getsize(OPS_JSON) < 3_000_000
    data = shipped()
    for section in ["aten", "python"]:
        assert list(data[section]) == sorted(data[section])
    assert data["inplace_methods"] == sorted(data["inplace_methods"])


def test_lookup_does_not_import_torch():
    code = (
        "import sys, inplace_lint, inplace_lint.knowledge\n"
        "k = inplace_lint.knowledge.load()\n"
        "assert k.lookup('torch.exp') is not None\n"
        "assert k.lookup_call('torch.Tensor.max', frozenset({'dim'})) is not None\n"
        "assert 'torch' not in sys.modules, sorted(m for m in sys.modules if m.startswith('torch'))\n"
        "print('ok')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"


FOREACH_INPLACE = sorted({"torch." + key.split(".")[0] for key, entry in shipped()["aten"].items()
                          if key.startswith("_foreach_") and entry["inplace"]})


@needs_torch
@pytest.mark.parametrize("name", FOREACH_INPLACE)
def test_foreach_inplace_ops_write_every_tensor_of_their_list(name):
    """What the analysis reads off ATen's ``_foreach_*_`` entries (Knowledge.foreach_inplace), confirmed
    under torch: the op bumps the version of every tensor of its first argument, and refuses a leaf that
    requires grad there outside no_grad."""
    import torch

    assert K.foreach_inplace(name)
    op = getattr(torch, name.split(".", 1)[1])

    def tensors():
        return [torch.rand(3, dtype=torch.float64) + 0.5 for _ in range(2)]

    # the first argument list that the op takes: (list), (list, number), (list, list), ...
    for rest in ((), (0.5,), (tensors(),), (tensors(), 0.5), (tensors(), tensors()), (tensors(), tensors(), 0.5)):
        written = tensors()
        before = [t._version for t in written]
        try:
            op(written, *rest)
        except (TypeError, RuntimeError):
            continue
        break
    else:
        pytest.fail(f"{name}: no argument list worked")
    assert all(t._version > v for t, v in zip(written, before)), name
    leaves = [t.requires_grad_() for t in tensors()]
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad"):
        op(leaves, *rest)


# -- the hand-listed names (knowledge/tensor_names.json), checked against torch -------------------------
def _view_calls():
    return {  # each listed view method, called as real code calls it on a (2, 3) tensor
        "as_strided": lambda x: x.as_strided((3, 2), (1, 3)),
        "detach": lambda x: x.detach(),
        "diagonal": lambda x: x.diagonal(),
        "expand": lambda x: x[:1].expand(2, 3),
        "expand_as": lambda x: x[:1].expand_as(x),
        "flatten": lambda x: x.flatten(),
        "movedim": lambda x: x.movedim(0, 1),
        "narrow": lambda x: x.narrow(0, 0, 1),
        "permute": lambda x: x.permute(1, 0),
        "reshape": lambda x: x.reshape(-1),
        "select": lambda x: x.select(0, 0),
        "squeeze": lambda x: x.squeeze(),
        "swapaxes": lambda x: x.swapaxes(0, 1),
        "t": lambda x: x.t(),
        "transpose": lambda x: x.transpose(0, 1),
        "unflatten": lambda x: x.unflatten(1, (3, 1)),
        "unfold": lambda x: x.unfold(1, 2, 1),
        "unsqueeze": lambda x: x.unsqueeze(0),
        "view": lambda x: x.view(-1),
        "view_as": lambda x: x.view_as(x),
        "adjoint": lambda x: x.adjoint(),
        "moveaxis": lambda x: x.moveaxis(0, 1),
        "swapdims": lambda x: x.swapdims(0, 1),
        "T": lambda x: x.T,
        "mT": lambda x: x.mT,
        "H": lambda x: x.H,
        "mH": lambda x: x.mH,
    }


def _shares_version_counter(view, base) -> bool:
    """A write to ``base`` bumps ``view``'s version: torch's own meaning of "a view" for autograd."""
    import torch

    before = view._version
    with torch.no_grad():
        base.add_(1)
    shared = view.untyped_storage().data_ptr() == base.untyped_storage().data_ptr()
    return view._version == before + 1 and shared


def test_tensor_name_lists_are_sorted_sets_the_loader_reads():
    path = os.path.join(os.path.dirname(knowledge.__file__), "tensor_names.json")
    with open(path, encoding="utf-8") as fh:
        lists = {key: names for key, names in json.load(fh).items() if not key.startswith("_")}
    assert all(names == sorted(set(names)) for names in lists.values())
    assert knowledge.VIEW_METHODS == frozenset(lists["view_methods"])
    assert knowledge.MAY_COPY_VIEWS <= knowledge.VIEW_METHODS
    assert knowledge.TRANSPOSING_ATTRIBUTES <= knowledge.VIEW_ATTRIBUTES <= knowledge.WRITE_THROUGH_ATTRIBUTES
    assert knowledge.COPY_WHEN_STRIDED & knowledge.STRIDED_VIEWS == frozenset()


@needs_torch
def test_view_methods_return_views():
    """Every listed view method exists and returns a tensor sharing its receiver's version counter; those
    listed as aliasing (all but reshape, flatten, unflatten) on any input, the others on a contiguous one."""
    import torch

    calls = _view_calls()
    assert knowledge.VIEW_METHODS <= calls.keys()
    for name in sorted(knowledge.VIEW_METHODS):
        assert callable(getattr(torch.Tensor, name)), name
        x = torch.zeros(2, 3)
        assert _shares_version_counter(calls[name](x), x), name
    assert knowledge.ALIASING_VIEW_METHODS == knowledge.VIEW_METHODS - {"reshape", "flatten", "unflatten"}


@needs_torch
def test_may_copy_views_copy_a_strided_input():
    """reshape and flatten copy a transposed input (the analysis must not take the result for an alias of
    it); unflatten splits one dimension, which a view always can, yet torch documents it as reshape-like."""
    import torch

    for name in ("reshape", "flatten"):
        x = torch.zeros(2, 3)
        out = _view_calls()[name](x.t())
        assert out.untyped_storage().data_ptr() != x.untyped_storage().data_ptr(), name
    assert knowledge.MAY_COPY_VIEWS == {"reshape", "flatten", "unflatten"}


@needs_torch
def test_view_attributes_are_views():
    import torch

    for name in sorted(knowledge.TRANSPOSING_ATTRIBUTES):
        x = torch.zeros(2, 3)
        view = getattr(x, name)
        assert not view.is_contiguous() and _shares_version_counter(view, x), name
    for name in sorted(knowledge.VIEW_ATTRIBUTES - knowledge.TRANSPOSING_ATTRIBUTES):  # real, imag
        z = torch.zeros(2, 3, dtype=torch.complex64)
        assert _shares_version_counter(getattr(z, name), z), name
    x = torch.zeros(2, 3)
    assert x.real is x  # of a real tensor: the tensor itself (ops.json: may_alias)


@needs_torch
def test_storage_attributes_share_storage_not_the_version_counter():
    """``x.data``: a write through it writes ``x``'s storage (the fixes treat it as a view), but autograd
    does not see it (its version counter is its own)."""
    import torch

    for name in sorted(knowledge.WRITE_THROUGH_ATTRIBUTES - knowledge.VIEW_ATTRIBUTES):
        x = torch.zeros(2, 3)
        data = getattr(x, name)
        before = x._version
        data.add_(1)
        assert x._version == before and bool((x == 1).all()), name


@needs_torch
def test_strided_views_are_not_contiguous_and_copy_when_strided_copies():
    import torch

    calls = _view_calls()
    for name in sorted(knowledge.STRIDED_VIEWS):
        x = torch.zeros(2, 3)
        view = calls[name](x)
        assert not view.is_contiguous() and _shares_version_counter(view, x), name
    for name in sorted(knowledge.COPY_WHEN_STRIDED):
        x = torch.zeros(2, 3)
        strided = x.t()
        copied = getattr(strided, name)(-1) if name == "reshape" else getattr(strided, name)()
        assert copied.untyped_storage().data_ptr() != x.untyped_storage().data_ptr(), name
        plain = getattr(x, name)(-1) if name == "reshape" else getattr(x, name)()
        assert plain.untyped_storage().data_ptr() == x.untyped_storage().data_ptr(), name


@needs_torch
def test_non_differentiable_methods_return_no_grad():
    """Each listed method exists; torch's result requires no grad, or (zero_gradient_methods) requires grad
    with a gradient that is zero or not implemented; functions_met_as_methods are torch functions."""
    import torch

    path = os.path.join(os.path.dirname(knowledge.__file__), "tensor_names.json")
    with open(path, encoding="utf-8") as fh:
        lists = json.load(fh)
    r = torch.rand(4, requires_grad=True)
    args = {"eq": (0.5,), "ne": (0.5,), "lt": (0.5,), "le": (0.5,), "gt": (0.5,), "ge": (0.5,),
            "floor_divide": (2,), "logical_and": (r,), "logical_or": (r,), "logical_xor": (r,),
            "new_empty": (2,), "new_full": ((2,), 1.0), "new_ones": (2,), "new_zeros": (2,),
            "new_tensor": ([1.0],)}
    for name in lists["non_differentiable_methods"]:
        receiver = torch.tensor([0, 1, 1]) if name == "bincount" else r  # counts take integers
        assert getattr(receiver, name)(*args.get(name, ())).requires_grad is False, name
    for name in lists["zero_gradient_methods"]:
        x = torch.rand(4, requires_grad=True)
        out = getattr(x, name)(*args.get(name, ()))
        try:
            out.sum().backward()
        except RuntimeError as error:
            assert "not implemented" in str(error), name
        else:
            assert bool((x.grad == 0).all()), name
    for name in lists["functions_met_as_methods"]:
        assert not hasattr(torch.Tensor, name) and getattr(torch, name)(r).requires_grad is False, name
    assert knowledge.NON_DIFFERENTIABLE_METHODS == frozenset(
        lists["non_differentiable_methods"] + lists["zero_gradient_methods"]
        + lists["functions_met_as_methods"])


@needs_torch
def test_factories_make_fresh_tensors():
    import torch

    for qualname in sorted(knowledge.FACTORIES):
        assert callable(getattr(torch, qualname.split(".", 1)[1])), qualname
    assert torch.zeros(2, requires_grad=True).is_leaf and torch.randn_like(torch.zeros(2))._base is None


def _resolve(qualname: str):
    import importlib

    module, _, attribute = qualname.rpartition(".")
    return getattr(importlib.import_module(module), attribute)


@needs_torch
def test_grad_mode_contexts_do_what_their_list_says():
    import torch

    for qualname in sorted(knowledge.NOGRAD_CONTEXTS):
        with _resolve(qualname)():
            assert not torch.is_grad_enabled(), qualname
    for qualname in sorted(knowledge.ENABLE_GRAD):
        with torch.no_grad(), _resolve(qualname)():
            assert torch.is_grad_enabled(), qualname
    for qualname in sorted(knowledge.SET_GRAD):
        with _resolve(qualname)(False):
            assert not torch.is_grad_enabled(), qualname
    for qualname in sorted(knowledge.SAVED_TENSOR_HOOKS):
        assert callable(_resolve(qualname)), qualname
    for qualname in sorted(knowledge.PARAMETER_CTORS):
        made = _resolve(qualname)(torch.zeros(2))
        assert isinstance(made, torch.Tensor) and made.is_leaf, qualname


@needs_torch
@pytest.mark.filterwarnings("ignore:TypedStorage is deprecated")
def test_non_tensor_methods_and_attributes_return_no_tensor():
    import torch

    x = torch.tensor([1.0])
    grad = torch.ones(1, requires_grad=True) * 2  # a non-leaf, for the hooks
    args = {"is_set_to": (x,), "equal": (x,), "allclose": (x,), "register_hook": (lambda g: g,)}
    receivers = {"register_hook": grad, "retain_grad": grad, "__index__": torch.tensor([1])}
    for name in sorted(knowledge.NON_TENSOR_METHODS):
        receiver = receivers.get(name, x)
        result = getattr(receiver, name)(*args.get(name, ()))
        assert not isinstance(result, torch.Tensor), name
    for name in sorted(knowledge.NON_TENSOR_ATTRIBUTES - {"names"}):
        assert not isinstance(getattr(x, name), torch.Tensor), name
    assert not hasattr(x, "names")  # named tensors are gone (former_tensor_attributes)


@needs_torch
def test_python_container_methods_are_no_tensor_methods():
    import torch

    assert not [name for name in knowledge.PYTHON_CONTAINER_METHODS if hasattr(torch.Tensor, name)]
    assert all(any(hasattr(kind, name) for kind in (list, dict, __import__("collections").deque))
               for name in knowledge.PYTHON_CONTAINER_METHODS)


@needs_torch
def test_the_fixes_twin_exceptions_hold_in_torch():
    """What the fixes' out-of-place rewrite (fixkit.fixes.method_twin) must not assume: these twins return
    another dtype than the in-place form leaves; these methods ending in "_" write no tensor data."""
    import torch

    path = os.path.join(os.path.dirname(knowledge.__file__), "tensor_names.json")
    with open(path, encoding="utf-8") as fh:
        lists = json.load(fh)
    x, y = torch.rand(3), torch.rand(3)
    for name in sorted(knowledge.TWINS_WITH_ANOTHER_RESULT):
        args = () if name == "logical_not" else (y,)
        assert getattr(x, name)(*args).dtype != x.dtype, name
        if name != "float_power":  # float_power_ refuses a float32 tensor: it would have to hold float64
            assert getattr(x.clone(), name + "_")(*args).dtype == x.dtype, name
    for name in lists["not_data_writes"]:
        assert callable(getattr(torch.Tensor, name)), name
    for name in lists["not_tensor_methods_left_alone"]:
        assert not hasattr(torch.Tensor, name), name
    left_alone = lists["not_data_writes"] + lists["not_tensor_methods_left_alone"]
    assert knowledge.NOT_DATA_WRITES == frozenset(left_alone)
    for name in sorted(knowledge.EXTRA_METHOD_TWINS):
        assert callable(getattr(torch.Tensor, name)) and callable(getattr(torch.Tensor, name + "_")), name


# -- the node torch names when a multi-view output is written (knowledge/multi_view_nodes.json) ------------
def _multi_view_calls():
    """Each entry's op, called as real code calls it on a (6, 4) tensor, returning its outputs."""
    import torch

    return {
        "torch.Tensor.__iter__": lambda x: list(x),
        "torch.Tensor.chunk": lambda x: x.chunk(3),
        "torch.Tensor.split": lambda x: x.split(2),
        "torch.Tensor.split#sizes": lambda x: x.split([1, 2, 3]),
        "torch.Tensor.split_with_sizes": lambda x: x.split_with_sizes([1, 2, 3]),
        "torch.Tensor.unbind": lambda x: x.unbind(0),
        "torch.chunk": lambda x: torch.chunk(x, 3),
        "torch.split": lambda x: torch.split(x, 2),
        "torch.split#sizes": lambda x: torch.split(x, (1, 2, 3)),
        "torch.split_with_sizes": lambda x: torch.split_with_sizes(x, [1, 2, 3]),
        "torch.unbind": lambda x: torch.unbind(x),
    }


def _multi_view_error(outputs, k: int) -> str:
    try:
        outputs[k].add_(1)
    except RuntimeError as error:
        return str(error)
    return ""


@needs_torch
def test_multi_view_nodes_are_what_torch_names():
    """Writing output k of each listed op raises "Output k of <node> is a view ..." with the listed node,
    for the first and the last output; every multi-view op of ops.json has its node listed."""
    import torch

    path = os.path.join(os.path.dirname(knowledge.__file__), "multi_view_nodes.json")
    with open(path, encoding="utf-8") as fh:
        nodes = json.load(fh)["nodes"]
    calls = _multi_view_calls()
    assert sorted(nodes) == sorted(calls)
    for key, node in nodes.items():
        outputs = calls[key](torch.randn(6, 4, requires_grad=True) * 2)
        for k in (0, len(outputs) - 1):
            error = _multi_view_error(outputs, k)
            begins = f"Output {k} of {node} is a view and is being modified inplace."
            assert error.startswith(begins), (key, error)
    multi_view = {name for name, raw in shipped()["python"].items() if raw.get("multi_view")}
    assert multi_view <= {key.split("#")[0] for key in nodes}


def test_multi_view_node_lookup():
    assert knowledge.multi_view_node("torch.Tensor.unbind") == "Unbind"
    assert knowledge.multi_view_node("torch.Tensor.chunk", None) == "Split"
    assert knowledge.multi_view_node("torch.Tensor.split", False) == "Split"
    assert knowledge.multi_view_node("torch.split", True) == "SplitWithSizes"
    assert knowledge.multi_view_node("torch.Tensor.split", None) is None  # x.split(n): n an int or sizes
    assert knowledge.multi_view_node("torch.Tensor.tensor_split") is None
