"""The Python surface the knowledge covers, and how to call each API in a probe (imports torch).

This file says *which* APIs exist and how to build valid inputs for them -- never what they save:
that is measured by :mod:`probes`. Parameter names come from torch itself (``inspect.signature``,
the signature lines of torch's docstrings, or the ATen schema), see :func:`signature_params`.
"""

from __future__ import annotations

import importlib
import inspect
import operator
import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import torch

MODULE_PARAMS = "@params"


@dataclass(frozen=True)
class T:
    """How to build one tensor argument."""

    shape: Tuple[int, ...] = (3, 4)
    domain: str = "real"  # real | pos | unit | sym | gt1 | spd | int | bool | value
    dtype: Optional[torch.dtype] = None  # default float64 (int64 for "int")
    grad: bool = True  # may require grad (float inputs only)
    high: int = 3  # "int": values in [0, high)
    value: Any = None  # "value": torch.tensor(value)
    transform: Optional[Callable] = None  # applied to the raw values (no grad)
    after: Optional[Callable] = None  # applied to the prepared argument (e.g. make it non-contiguous)

    @property
    def can_grad(self) -> bool:
        if not self.grad or self.domain in ("int", "bool"):
            return False
        return self.dtype is None or self.dtype.is_floating_point


@dataclass(frozen=True)
class TL:
    """A list of tensors passed as one parameter (``torch.cat(tensors)``), or spread (``*operands``)."""

    items: Tuple[T, ...]
    star: bool = False

    def __init__(self, items, star=False):
        object.__setattr__(self, "items", tuple(items))
        object.__setattr__(self, "star", star)

    @property
    def can_grad(self) -> bool:
        return any(i.can_grad for i in self.items)


@dataclass(frozen=True)
class Star:
    """Plain values spread into a ``*args`` parameter (``x.view(4, 3)``)."""

    items: Tuple

    def __init__(self, items):
        object.__setattr__(self, "items", tuple(items))


def is_tensor_spec(s) -> bool:
    return isinstance(s, (T, TL))


@dataclass
class Api:
    name: str  # qualified name, optionally "<name>#<param>"
    kind: str  # function | method | operator | module
    fn: Optional[Callable] = None
    args: List[Tuple[str, Any]] = field(default_factory=list)  # positional, in order
    kwargs: List[Tuple[str, Any]] = field(default_factory=list)
    params: List[str] = field(default_factory=list)
    kwonly: List[str] = field(default_factory=list)
    inplace_kwarg: Optional[str] = None  # "inplace": in place only when that keyword is true
    # (keyword, a value that turns it on, what the call then writes in place before it computes: a
    # parameter, or "@param:<name>", the module's own): ``max_norm`` renormalises an embedding's rows
    writes_given: Optional[Tuple[str, Any, str]] = None
    always_inplace: bool = False
    modifies: Optional[str] = None
    module_cls: Optional[type] = None
    ctor_args: Tuple = ()
    ctor_kwargs: Dict[str, Any] = field(default_factory=dict)
    ctor_params: List[str] = field(default_factory=list)
    module_setup: Optional[Callable] = None

    @property
    def base(self) -> str:
        return self.name.split("#", 1)[0]

    def all_args(self) -> List[Tuple[str, Any]]:
        return list(self.args) + list(self.kwargs)

    def tensor_params(self) -> List[str]:
        names = [n for n, s in self.all_args() if is_tensor_spec(s)]
        return [p for p in self.params if p in names] + [n for n in names if n not in self.params]

    def grad_params(self) -> List[str]:
        names = [n for n, s in self.all_args() if is_tensor_spec(s) and s.can_grad]
        if self.kind == "module" and _has_params(self):
            names.append(MODULE_PARAMS)
        return names


def _has_params(api: Api) -> bool:
    m = api.module_cls(*api.ctor_args, **api.ctor_kwargs)
    return any(True for _ in m.parameters())


# ------------------------------------------------------------------------------------ parameter names


def resolve(qualname: str):
    parts = qualname.split(".")
    for i in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:i]))
        except ImportError:
            continue
        for p in parts[i:]:
            obj = getattr(obj, p)
        return obj
    raise ImportError(qualname)


def _split_args(text: str) -> List[str]:
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def _parse_doc_signatures(doc: str, short: str) -> Optional[Tuple[List[str], List[str]]]:
    params: List[str] = []
    kwonly: List[str] = []
    found = False
    pat = re.compile(r"^\s*(?:\.\. function:: )?(?:[\w.]+\.)?" + re.escape(short) + r"\((.*?)\)\s*(?:->|$)")
    for line in doc.splitlines():
        m = pat.match(line)
        if not m:
            continue
        found = True
        star = False
        for a in _split_args(m.group(1)):
            if a in ("*", "/"):
                star = star or a == "*"
                continue
            name = a.split("=")[0].split(":")[0].strip().lstrip("*").strip()
            if not name.isidentifier():
                continue
            if a.startswith("**"):
                continue
            if star:
                if name not in kwonly and name not in params:
                    kwonly.append(name)
            elif name not in params:
                if name in kwonly:
                    kwonly.remove(name)
                params.append(name)
    return (params, kwonly) if found else None


def _aten_schema_params(name: str) -> Optional[Tuple[List[str], List[str]]]:
    try:
        schemas = torch._C._jit_get_schemas_for_operator("aten::" + name)
    except Exception:
        return None
    if not schemas:
        return None
    params: List[str] = []
    kwonly: List[str] = []
    for s in schemas:
        for a in s.arguments:
            if a.kwarg_only:
                if a.name not in kwonly and a.name not in params:
                    kwonly.append(a.name)
            elif a.name not in params:
                params.append(a.name)
    return params, kwonly


@lru_cache(maxsize=None)
def signature_params(qualname: str, kind: str) -> Tuple[Tuple[str, ...], Tuple[str, ...]]:
    """(positional params, keyword-only params) of an API, from torch."""
    obj = resolve(qualname)
    short = qualname.rsplit(".", 1)[1]
    if kind == "module":
        sig = inspect.signature(obj.forward)
        ps = [p for p in sig.parameters.values() if p.name != "self"]
    else:
        try:
            sig = inspect.signature(obj)
            ps = list(sig.parameters.values())
        except (TypeError, ValueError):
            ps = None
    if ps is not None and all(p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in ps):
        ps = None  # (*args, **kwargs) wrappers: the docstring has the real signature
    if ps is not None:
        pos = [p.name for p in ps if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.VAR_POSITIONAL)]
        kwo = [p.name for p in ps if p.kind == p.KEYWORD_ONLY]
        if kind == "method" and (not pos or pos[0] != "self"):
            pos.insert(0, "self")
        return tuple(pos), tuple(kwo)
    parsed = _parse_doc_signatures(obj.__doc__ or "", short)
    if parsed is None:
        parsed = _aten_schema_params(short.strip("_") if short.startswith("__") else short)
        if parsed is None:
            raise ValueError(f"no signature for {qualname}")
        pos, kwo = parsed
        if kind == "method" and pos and pos[0] != "self":
            pos.insert(0, "self")
        if kind == "function" and pos and pos[0] == "self":
            pos[0] = "input"
        return tuple(pos), tuple(kwo)
    pos, kwo = parsed
    if kind == "method":
        pos.insert(0, "self")
    return tuple(pos), tuple(kwo)


# ---- torch's generated type stubs: the exact Python names of every C-bound overload

@dataclass(frozen=True)
class Overload:
    positional: Tuple[Tuple[str, str, bool], ...]  # (name, annotation, has default)
    kwonly: Tuple[Tuple[str, str, bool], ...]
    varargs: Optional[str]


@lru_cache(maxsize=None)
def _stub_overloads() -> Dict[str, Dict[str, List[Overload]]]:
    """{"function": {name: [overloads]}, "method": {...}} from torch/_C/_VariableFunctions.pyi and
    the TensorBase class of torch/_C/__init__.pyi (generated by torchgen from the same schemas that
    bind the Python arguments)."""
    import ast
    import os

    root = os.path.join(os.path.dirname(torch.__file__), "_C")
    out: Dict[str, Dict[str, List[Overload]]] = {"function": {}, "method": {}, "nn": {}}

    def conv(fd) -> Overload:
        a = fd.args
        pos = list(a.posonlyargs) + list(a.args)
        ndef = len(a.defaults)
        positional = tuple(
            (x.arg, ast.unparse(x.annotation) if x.annotation is not None else "", i >= len(pos) - ndef)
            for i, x in enumerate(pos)
        )
        kwonly = tuple(
            (x.arg, ast.unparse(x.annotation) if x.annotation is not None else "", d is not None)
            for x, d in zip(a.kwonlyargs, a.kw_defaults)
        )
        return Overload(positional, kwonly, a.vararg.arg if a.vararg else None)

    def load(fname):
        path = os.path.join(root, fname)
        if not os.path.exists(path):
            return None
        with open(path, encoding="utf-8") as fh:
            return ast.parse(fh.read())

    tree = load("_VariableFunctions.pyi")
    for node in tree.body if tree else ():
        if isinstance(node, ast.FunctionDef):
            out["function"].setdefault(node.name, []).append(conv(node))
    tree = load("_nn.pyi")
    for node in tree.body if tree else ():
        if isinstance(node, ast.FunctionDef):
            out["nn"].setdefault(node.name, []).append(conv(node))
    tree = load("__init__.pyi")
    for node in tree.body if tree else ():
        if isinstance(node, ast.ClassDef) and node.name == "TensorBase":
            for m in node.body:
                if isinstance(m, ast.FunctionDef):
                    out["method"].setdefault(m.name, []).append(conv(m))
    return out


def _spec_fits(spec, ann: str) -> bool:
    if isinstance(spec, (T, TL)):
        return "Tensor" in ann or ann == "" or "Any" in ann
    if isinstance(spec, (list, tuple)):
        return "Sequence" in ann or "list" in ann or "tuple" in ann or "Size" in ann or ann == ""
    if isinstance(spec, str):
        return "str" in ann or ann == ""
    if isinstance(spec, bool):
        return "bool" in ann or ann == ""
    if isinstance(spec, (int, float)):
        return ann != "Tensor"
    return True


def match_overload(
    overloads: Sequence[Overload], pos_specs: Sequence[Any], kw: Dict[str, Any]
) -> Optional[Overload]:
    """The stub overload a call with these arguments binds to (first fit, as the arg parser does)."""
    for o in overloads:
        pos = [p for p in o.positional if p[0] != "self"]
        names = {p[0] for p in pos} | {k[0] for k in o.kwonly}
        if len(pos_specs) > len(pos) and not o.varargs:
            continue
        if not all(_spec_fits(s, pos[i][1]) for i, s in enumerate(pos_specs) if i < len(pos)):
            continue
        if any(k not in names for k in kw):
            continue
        bound = {p[0] for p in pos[: len(pos_specs)]} | set(kw)
        if any(not d and n not in bound for n, _, d in pos + list(o.kwonly)):
            continue
        annotations = {n: a for n, a, _ in pos + list(o.kwonly)}
        if any(not _spec_fits(v, annotations[k]) for k, v in kw.items()):
            continue
        return o
    return None


def stub_params(qualname: str, kind: str, pos_specs: Sequence[Any], kw: Dict[str, Any]):
    """(params, kwonly) from torch's stubs for the overload these probe arguments select, or None."""
    short = qualname.rsplit(".", 1)[1]
    table = _stub_overloads()
    if kind == "method":
        ovs = table["method"].get(short)
        pos_specs = pos_specs[1:]  # self
    else:
        ovs = table["function"].get(short)
        if ovs is None and qualname.startswith("torch.nn.functional."):
            ovs = table["nn"].get(short)
    if not ovs:
        return None
    o = match_overload(ovs, pos_specs, kw)
    if o is None:
        return None
    # the matched overload's parameters first, then the other overloads' (a static caller cannot
    # always tell the overloads apart; "#<param>" entries cover the ones that save differently)
    params: List[str] = []
    kwonly: List[str] = []

    def tensors(ov: Overload) -> int:
        return sum("Tensor" in a for _, a, _ in ov.positional)

    for ov in [o] + sorted((x for x in ovs if x is not o), key=tensors):
        for p in ov.positional:
            if p[0] not in params:
                params.append(p[0])
        if ov.varargs and ov.varargs not in params:
            params.append(ov.varargs)
        for k in ov.kwonly:
            if k[0] not in kwonly:
                kwonly.append(k[0])
    if kind == "method" and (not params or params[0] != "self"):
        params = ["self"] + [p for p in params if p != "self"]
    return params, [k for k in kwonly if k not in params]


def ctor_params(cls) -> List[str]:
    sig = inspect.signature(cls.__init__)
    return [p.name for p in sig.parameters.values() if p.name != "self" and p.kind != p.VAR_KEYWORD]


# ------------------------------------------------------------------------------------------- builders

SURFACE: List[Api] = []


def _bind(api: Api, pos_specs: Sequence[Any], kw_specs: Dict[str, Any], names=None):
    names = list(names) if names is not None else list(api.params)
    args = []
    if len(pos_specs) > len(names):
        if not names:
            raise ValueError(f"{api.name}: {len(pos_specs)} positional specs for params {names}")
        # the rest goes to the last (``*operands`` / ``*shape``) parameter
        k = len(names) - 1
        rest = list(pos_specs[k:])
        pos_specs = list(pos_specs[:k])
        if all(isinstance(r, T) for r in rest):
            pos_specs.append(TL(rest, star=True))
        else:
            pos_specs.append(Star(rest))
    for i, s in enumerate(pos_specs):
        args.append((names[i], s))
    api.args = args
    api.kwargs = list(kw_specs.items())


def _add(api: Api) -> Api:
    if any(a.name == api.name for a in SURFACE):
        raise ValueError(f"duplicate surface entry {api.name}")
    SURFACE.append(api)
    return api


def _params_for(qualname: str, kind: str, specs, kw, explicit):
    if explicit is not None:
        return tuple(explicit), ()
    obj = resolve(qualname)
    try:
        inspect.signature(obj)
        python_defined = not all(
            p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in inspect.signature(obj).parameters.values()
        )
    except (TypeError, ValueError):
        python_defined = False
    if not python_defined:
        got = stub_params(qualname, kind, list(specs), kw)
        if got is not None:
            return tuple(got[0]), tuple(got[1])
    return signature_params(qualname, kind)


def fn(name: str, *specs, kw: Optional[Dict[str, Any]] = None, params=None, call=None, **opts) -> Api:
    """A ``torch.*`` / ``torch.nn.functional.*`` function."""
    base = name.split("#", 1)[0]
    pos, kwo = _params_for(base, "function", specs, kw or {}, params)
    api = Api(
        name=name, kind="function", fn=call or resolve(base), params=list(pos), kwonly=list(kwo), **opts
    )
    if "inplace" in api.params + api.kwonly and api.inplace_kwarg is None and not api.always_inplace:
        api.inplace_kwarg = "inplace"
    if api.inplace_kwarg or api.always_inplace:
        api.modifies = api.modifies or api.params[0]
    _bind(api, specs, kw or {})
    return _add(api)


def meth(name: str, *specs, kw: Optional[Dict[str, Any]] = None, params=None, **opts) -> Api:
    """A ``torch.Tensor`` method; ``specs[0]`` is self."""
    base = name.split("#", 1)[0]
    full = "torch.Tensor." + base
    pos, kwo = _params_for(full, "method", specs, kw or {}, params)
    method = getattr(torch.Tensor, base)
    short = base
    default_inplace = short.endswith("_") and not short.endswith("__") or short in _DUNDER_INPLACE
    always = opts.pop("always_inplace", default_inplace)
    opts.pop("modifies", None)
    api = Api(
        name="torch.Tensor." + name,
        kind="method",
        fn=method,
        params=list(pos),
        kwonly=list(kwo),
        always_inplace=always,
        modifies="self" if always else None,
        **opts,
    )
    _bind(api, specs, kw or {})
    return _add(api)


_DUNDER_INPLACE = {
    "__iadd__", "__isub__", "__imul__", "__itruediv__", "__idiv__", "__ifloordiv__", "__imod__",
    "__ipow__", "__iand__", "__ior__", "__ixor__", "__ilshift__", "__irshift__", "__imatmul__",
}


def op(name: str, call: Callable, *specs, params=("self", "other"), inplace=False) -> Api:
    """An operator, ``operator.mul`` for ``a * b``; params are the operands left to right."""
    api = Api(name="operator." + name, kind="operator", fn=call, params=list(params))
    _bind(api, specs, {})
    return _add(api)


def mod(name: str, ctor: Tuple = (), *specs, ctor_kw: Optional[Dict] = None, kw=None, setup=None,
        writes_given: Optional[Tuple[str, Any, str]] = None) -> Api:
    """A ``torch.nn`` module: constructed, then called on ``specs``."""
    cls = resolve(name)
    pos, kwo = signature_params(name, "module")
    cps = ctor_params(cls)
    api = Api(
        name=name,
        kind="module",
        module_cls=cls,
        ctor_args=tuple(ctor),
        ctor_kwargs=dict(ctor_kw or {}),
        ctor_params=cps,
        params=list(pos),
        kwonly=list(kwo),
        module_setup=setup,
        writes_given=writes_given,
    )
    if "inplace" in cps:
        api.inplace_kwarg = "inplace"
        api.modifies = pos[0]
    _bind(api, specs, kw or {})
    return _add(api)


# ------------------------------------------------------------------------------------------- the list

X = T()
POS = T(domain="pos")
UNIT = T(domain="unit")
SYM = T(domain="sym")
GT1 = T(domain="gt1")
V4 = T((4,))
M34 = T((3, 4))
M45 = T((4, 5))
B = T((2, 3, 4))
IDX = T((3, 2), domain="int", high=4)
MASK = T((3, 4), domain="bool")
NC = T((4, 3), after=lambda t: t.t())  # a non-contiguous 3x4 tensor
F32 = T(dtype=torch.float32)

# Unary elementwise ops: (name, domain, torch.<name>_ exists?)
UNARY = [
    ("exp", X), ("exp2", X), ("expm1", X), ("log", POS), ("log2", POS), ("log10", POS), ("log1p", POS),
    ("sqrt", POS), ("rsqrt", POS), ("reciprocal", POS), ("sin", X), ("cos", X), ("tan", SYM),
    ("asin", SYM), ("acos", SYM), ("atan", X), ("sinh", X), ("cosh", X), ("tanh", X), ("asinh", X),
    ("acosh", GT1), ("atanh", SYM), ("sigmoid", X), ("relu", X), ("abs", X), ("neg", X), ("square", X),
    ("erf", X), ("erfc", X), ("erfinv", SYM), ("sign", X), ("sgn", X), ("floor", X), ("ceil", X),
    ("round", X), ("trunc", X), ("frac", X), ("lgamma", POS), ("digamma", POS), ("logit", UNIT),
    ("sinc", X), ("deg2rad", X), ("rad2deg", X), ("i0", X), ("nan_to_num", X), ("positive", X),
    ("fix", X), ("absolute", X), ("negative", X), ("arcsin", SYM), ("arccos", SYM), ("arctan", X),
    ("arcsinh", X), ("arccosh", GT1), ("arctanh", SYM), ("expit", X),
]


def _unary():
    for name, dom in UNARY:
        if hasattr(torch, name):
            fn("torch." + name, dom)
        elif hasattr(torch.special, name):
            fn("torch.special." + name, dom)
        if hasattr(torch.Tensor, name):
            meth(name, dom)
        if hasattr(torch.Tensor, name + "_"):
            meth(name + "_", dom)
        if hasattr(torch, name + "_") and name != "positive":
            fn("torch." + name + "_", dom, always_inplace=True)


_unary()

# Binary elementwise: torch.f(input, other), Tensor.f(self, other), Tensor.f_(self, other)
BINARY = [
    ("add", X, X), ("sub", X, X), ("mul", X, X), ("div", X, POS), ("true_divide", X, POS),
    ("pow", POS, X), ("maximum", X, X), ("minimum", X, X), ("fmax", X, X), ("fmin", X, X),
    ("atan2", X, X), ("hypot", X, X), ("fmod", X, POS), ("remainder", X, POS), ("xlogy", X, POS),
    ("logaddexp", X, X), ("logaddexp2", X, X), ("copysign", X, X), ("subtract", X, X),
    ("multiply", X, X), ("divide", X, POS), ("rsub", X, X), ("ldexp", X, T(domain="int")),
    ("float_power", POS, X), ("nextafter", X, X), ("arctan2", X, X),
]
# Powers: ``x ** 2`` is by far the common spelling, and torch's Scalar-exponent overloads save less
# than the Tensor-exponent ones (no result). The base entry is therefore the number-exponent form and
# "<name>#exponent=tensor" the tensor-exponent form (Knowledge.lookup_call(tensors=...)).
POWERS = ("pow", "float_power")
for _name, _a, _b in BINARY:
    _forms = [("", 2.0), ("#exponent=tensor", _b)] if _name in POWERS else [("", _b)]
    for _suffix, _second in _forms:
        if hasattr(torch, _name):
            fn("torch." + _name + _suffix, _a, _second)
        if hasattr(torch.Tensor, _name):
            meth(_name + _suffix, _a, _second)
        if hasattr(torch.Tensor, _name + "_"):
            meth(_name + "_" + _suffix, _a, _second)

# ---- operators
op("add", operator.add, X, X)
op("sub", operator.sub, X, X)
op("mul", operator.mul, X, X)
op("truediv", operator.truediv, X, POS)
op("floordiv", operator.floordiv, X, POS)
op("mod", operator.mod, X, POS)
op("pow", operator.pow, POS, 2.0)  # x ** 2
op("pow#other=tensor", operator.pow, POS, X)  # x ** t
op("matmul", operator.matmul, M34, M45)
op("neg", operator.neg, X, params=("self",))
op("pos", operator.pos, X, params=("self",))
op("abs", operator.abs, X, params=("self",))
op("radd", lambda other, self: other + self, 2.0, X, params=("other", "self"))
op("rsub", lambda other, self: other - self, 2.0, X, params=("other", "self"))
op("rmul", lambda other, self: other * self, 2.0, X, params=("other", "self"))
op("rtruediv", lambda other, self: other / self, 2.0, POS, params=("other", "self"))
op("rfloordiv", lambda other, self: other // self, 2.0, POS, params=("other", "self"))
op("rmod", lambda other, self: other % self, 2.0, POS, params=("other", "self"))
op("rpow", lambda other, self: other ** self, 2.0, X, params=("other", "self"))

# augmented assignment: the dunder methods that implement them (probed as in-place methods)
meth("__iadd__", X, X, params=("self", "other"))
meth("__isub__", X, X, params=("self", "other"))
meth("__imul__", X, X, params=("self", "other"))
meth("__itruediv__", X, POS, params=("self", "other"))
meth("__ifloordiv__", X, POS, params=("self", "other"))
meth("__imod__", X, POS, params=("self", "other"))
meth("__ipow__", POS, 2.0, params=("self", "other"))
meth("__ipow__#other=tensor", POS, X, params=("self", "other"))

# ---- reductions
for _name in ["sum", "mean", "prod", "std", "var", "norm", "amax", "amin", "nansum", "nanmean"]:
    fn("torch." + _name, X)
    meth(_name, X)
for _name in ["sum", "mean", "prod", "std", "var", "norm", "amax", "amin", "logsumexp", "cumsum", "cumprod",
              "logcumsumexp", "softmax", "log_softmax", "argmax", "argmin"]:
    fn(("torch." + _name + "#dim") if _name in ("sum", "mean", "prod", "std", "var", "norm", "amax", "amin")
       else "torch." + _name, X, kw={"dim": 1})
    meth((_name + "#dim") if _name in ("sum", "mean", "prod", "std", "var", "norm", "amax", "amin")
         else _name, X, kw={"dim": 1})
for _name in ["max", "min", "median"]:
    fn("torch." + _name, X)
    meth(_name, X)
    fn("torch." + _name + "#dim", X, 1)
    meth(_name + "#dim", X, 1)
fn("torch.max#other", X, X)
meth("max#other", X, X)
fn("torch.min#other", X, X)
meth("min#other", X, X)
fn("torch.sort", X, kw={"dim": 1})
meth("sort", X, kw={"dim": 1})
fn("torch.topk", X, 2)
meth("topk", X, 2)
fn("torch.kthvalue", X, 2)
fn("torch.cummax", X, 1)
fn("torch.cummin", X, 1)
fn("torch.std_mean", X)
fn("torch.var_mean", X)
fn("torch.dist", X, X)
fn("torch.trace", T((4, 4)))

# ---- matrix products
fn("torch.matmul", M34, M45)
meth("matmul", M34, M45)
fn("torch.mm", M34, M45)
meth("mm", M34, M45)
fn("torch.bmm", T((2, 3, 4)), T((2, 4, 5)))
meth("bmm", T((2, 3, 4)), T((2, 4, 5)))
fn("torch.addmm", T((3, 5)), M34, M45)
meth("addmm", T((3, 5)), M34, M45)
fn("torch.baddbmm", T((2, 3, 5)), T((2, 3, 4)), T((2, 4, 5)))
fn("torch.mv", M34, V4)
meth("mv", M34, V4)
fn("torch.addmv", T((3,)), M34, V4)
fn("torch.dot", V4, V4)
meth("dot", V4, V4)
fn("torch.outer", V4, T((3,)))
fn("torch.einsum", "ij,jk->ik", M34, M45)
fn("torch.tensordot", M34, M45, kw={"dims": 1})
fn("torch.kron", T((2, 2)), T((2, 3)))
fn("torch.cross", T((3, 3)), T((3, 3)), kw={"dim": 1})
fn("torch.cdist", M34, T((5, 4)))
fn("torch.inner", M34, T((5, 4)))
fn("torch.linalg.norm", X)
fn("torch.linalg.vector_norm", X)
fn("torch.linalg.matrix_norm", X)
fn("torch.linalg.inv", T((3, 3), domain="spd"))
fn("torch.inverse", T((3, 3), domain="spd"))
fn("torch.det", T((3, 3), domain="spd"))
fn("torch.logdet", T((3, 3), domain="spd"))
fn("torch.linalg.solve", T((3, 3), domain="spd"), T((3, 2)))
fn("torch.linalg.cholesky", T((3, 3), domain="spd"))
fn("torch.cholesky", T((3, 3), domain="spd"))
fn("torch.linalg.det", T((3, 3), domain="spd"))
fn("torch.linalg.slogdet", T((3, 3), domain="spd"))
fn("torch.linalg.qr", M34)
fn("torch.linalg.svd", M34, kw={"full_matrices": False})
fn("torch.linalg.svdvals", M34)
fn("torch.linalg.eigh", T((3, 3), domain="spd"))
fn("torch.linalg.eigvalsh", T((3, 3), domain="spd"))
fn("torch.linalg.pinv", M34)
fn("torch.linalg.matrix_exp", T((3, 3), domain="unit"))
fn("torch.linalg.matrix_power", T((3, 3), domain="spd"), 3)
fn("torch.linalg.multi_dot", TL([M34, M45]))
fn("torch.linalg.vecdot", M34, M34)
fn("torch.linalg.solve_triangular", T((3, 3), domain="spd"), T((3, 2)), kw={"upper": False})
fn("torch.linalg.lstsq", T((4, 3)), T((4, 2)))
fn("torch.linalg.matmul", M34, M45)

# ---- elementwise with extra args
# probed with tensor bounds, the general form (with numbers, only the tensor parameters matter)
LO = T(transform=lambda t: t / 4 - 1)
HI = T(transform=lambda t: t / 4 + 1)
fn("torch.clamp", X, LO, HI)
meth("clamp", X, LO, HI)
meth("clamp_", X, LO, HI)
fn("torch.clamp_", X, LO, HI, always_inplace=True)
fn("torch.clip", X, -0.5, 0.5)
meth("clip", X, -0.5, 0.5)
meth("clip_", X, -0.5, 0.5)
fn("torch.clamp_min", X, 0.0)
meth("clamp_min", X, 0.0)
meth("clamp_min_", X, 0.0)
fn("torch.clamp_max", X, 0.0)
meth("clamp_max", X, 0.0)
meth("clamp_max_", X, 0.0)
fn("torch.lerp", X, X, UNIT)  # a tensor weight, the general form (a number weight saves nothing)
meth("lerp", X, X, UNIT)
meth("lerp_", X, X, UNIT)
fn("torch.addcmul", X, X, X)
meth("addcmul", X, X, X)
meth("addcmul_", X, X, X)
fn("torch.addcdiv", X, X, POS)
meth("addcdiv", X, X, POS)
meth("addcdiv_", X, X, POS)
fn("torch.where", MASK, X, X)
meth("where", X, MASK, X)
fn("torch.masked_fill", X, MASK, 0.0)
meth("masked_fill", X, MASK, 0.0)
meth("masked_fill_", X, MASK, 0.0)

# ---- shape, views, copies
meth("view", X, 4, 3)
meth("view_as", X, T((4, 3)))
meth("reshape", X, 4, 3)
meth("reshape_as", X, T((4, 3)))
fn("torch.reshape", X, (4, 3))
meth("transpose", X, 0, 1)
fn("torch.transpose", X, 0, 1)
meth("t", X)
fn("torch.t", X)
meth("permute", X, 1, 0)
fn("torch.permute", X, (1, 0))
meth("unsqueeze", X, 0)
fn("torch.unsqueeze", X, 0)
meth("squeeze", T((3, 1, 4)))
fn("torch.squeeze", T((3, 1, 4)))
meth("squeeze#dim", T((3, 1, 4)), 1)
meth("expand", T((1, 4)), 3, 4)
meth("expand_as", T((1, 4)), X)
meth("flatten", B)
fn("torch.flatten", B)
meth("unflatten", X, 1, (2, 2))
meth("narrow", X, 1, 0, 2)
fn("torch.narrow", X, 1, 0, 2)
meth("select", X, 1, 0)
fn("torch.select", X, 1, 0)
meth("__getitem__", X, (slice(None), slice(1, None)), params=("self", "key"))
meth("__getitem__#key=tensor", X, T((2,), domain="int"), params=("self", "key"))
meth("diagonal", T((4, 4)))
fn("torch.diagonal", T((4, 4)))
meth("movedim", B, 0, 2)
fn("torch.movedim", B, 0, 2)
meth("unbind", X)
fn("torch.unbind", X)
meth("split", X, 2, 1)
fn("torch.split", X, 2, 1)
meth("chunk", X, 2, 1)
fn("torch.chunk", X, 2, 1)
meth("unfold", X, 1, 2, 1)
meth("as_strided", X, (2, 2), (1, 1))
meth("detach", X)
fn("torch.detach", X)
meth("clone", X)
fn("torch.clone", X)
meth("contiguous", X)
meth("to", X, torch.float64)
meth("to#dtype", X, kw={"dtype": torch.float32})
meth("type_as", X, X)
meth("float", F32)
# probed on float32, the default dtype: there .double() copies (on a float64 tensor it returns self)
meth("double", F32)
meth("half", F32)
meth("cpu", X)
meth("repeat", X, 2, 1)
meth("tile", X, (2, 1))
fn("torch.tile", X, (2, 1))
meth("flip", X, (0,))
fn("torch.flip", X, (0,))
meth("roll", X, 1, 1)
fn("torch.roll", X, 1, 1)
meth("tril", T((4, 4)))
fn("torch.tril", T((4, 4)))
meth("triu", T((4, 4)))
fn("torch.triu", T((4, 4)))
fn("torch.broadcast_to", T((1, 4)), (3, 4))
fn("torch.cat", TL([X, X]))
fn("torch.concat", TL([X, X]))
fn("torch.stack", TL([X, X]))
fn("torch.hstack", TL([X, X]))
fn("torch.vstack", TL([X, X]))
fn("torch.index_select", X, 0, T((2,), domain="int"))
meth("index_select", X, 0, T((2,), domain="int"))
fn("torch.gather", X, 1, IDX)
meth("gather", X, 1, IDX)
fn("torch.scatter", X, 1, IDX, T((3, 2)))
meth("scatter_", X, 1, IDX, T((3, 2)))
fn("torch.scatter_add", X, 1, IDX, T((3, 2)))
meth("scatter_add_", X, 1, IDX, T((3, 2)))
meth("index_add_", X, 0, T((2,), domain="value", value=[0, 2], dtype=torch.int64), T((2, 4)))
meth("index_fill_", X, 0, T((2,), domain="value", value=[0, 2], dtype=torch.int64), 1.0)
meth("index_copy_", X, 0, T((2,), domain="value", value=[0, 2], dtype=torch.int64), T((2, 4)))
meth("masked_scatter_", X, MASK, T((12,)))
fn("torch.masked_select", X, MASK)
fn("torch.take", X, T((3,), domain="int", high=12))
meth("__setitem__", X, (slice(None), 0), T((3,)), params=("self", "key", "value"), always_inplace=True)
meth("copy_", X, X)
meth("zero_", X)
meth("fill_", X, 1.0)
meth("normal_", X)
meth("uniform_", X)
meth("bernoulli_", X, 0.5)
meth("exponential_", X)
meth("random_", X)
fn("torch.diff", X)
fn("torch.trapezoid", X)
fn("torch.diag", V4)
fn("torch.diag_embed", X)
fn("torch.block_diag", T((2, 2)), T((2, 2)))
fn("torch.cartesian_prod", V4, T((3,)))
fn("torch.meshgrid", V4, T((3,)), kw={"indexing": "ij"})
fn("torch.searchsorted", T((4,), transform=lambda t: t.sort().values), X)


# ---- torch.nn.functional
NF = "torch.nn.functional."
IMG = T((2, 3, 5, 5))
SEQ = T((2, 3, 7))
VOL = T((1, 2, 4, 4, 4))
for _name in ["relu", "relu6", "elu", "selu", "celu", "gelu", "silu", "mish", "hardswish", "hardsigmoid",
              "sigmoid", "tanh", "softsign", "logsigmoid", "tanhshrink", "softplus", "hardtanh", "leaky_relu",
              "softshrink", "hardshrink"]:
    fn(NF + _name, X)
fn(NF + "rrelu", X, kw={"training": False})
fn(NF + "rrelu#training", X, kw={"training": True})
fn(NF + "threshold", X, 0.1, 0.0)
fn(NF + "glu", T((3, 4)))
fn(NF + "prelu", X, T((1,), transform=lambda t: t.abs() / 4))
for _name in ["relu_", "elu_", "leaky_relu_", "hardtanh_", "celu_", "selu_", "rrelu_"]:
    fn(NF + _name, X, always_inplace=True)
fn(NF + "threshold_", X, 0.1, 0.0, always_inplace=True)
for _name in ["softmax", "log_softmax", "softmin"]:
    fn(NF + _name, X, kw={"dim": 1})
fn(NF + "normalize", X)
fn(NF + "linear", M34, T((5, 4)), T((5,)))
fn(NF + "bilinear", M34, T((3, 5)), T((2, 4, 5)), T((2,)))
fn(NF + "conv1d", SEQ, T((4, 3, 3)), T((4,)))
fn(NF + "conv2d", IMG, T((4, 3, 3, 3)), T((4,)))
fn(NF + "conv3d", VOL, T((3, 2, 2, 2, 2)), T((3,)))
fn(NF + "conv_transpose1d", SEQ, T((3, 4, 3)), T((4,)))
fn(NF + "conv_transpose2d", IMG, T((3, 4, 3, 3)), T((4,)))
fn(NF + "conv_transpose3d", VOL, T((2, 3, 2, 2, 2)), T((3,)))
RUN_MEAN = T((3,), grad=False)
RUN_VAR = T((3,), domain="pos", grad=False)
fn(NF + "batch_norm", IMG, RUN_MEAN, RUN_VAR, T((3,)), T((3,)), kw={"training": True})
fn(NF + "batch_norm#training", IMG, RUN_MEAN, RUN_VAR, T((3,)), T((3,)), kw={"training": False})
fn(NF + "layer_norm", X, (4,), T((4,)), T((4,)))
fn(NF + "group_norm", IMG, 1, T((3,)), T((3,)))
fn(NF + "instance_norm", IMG)
fn(NF + "local_response_norm", IMG, 2)
fn(NF + "rms_norm", X, (4,), T((4,)))
# max_norm: the rows looked up are renormalised in place (under no_grad) before the lookup
fn(NF + "embedding", T((3, 2), domain="int", high=5), T((5, 4)), writes_given=("max_norm", 0.5, "weight"))
fn(NF + "dropout", X, 0.5)
fn(NF + "dropout1d", SEQ, 0.5)
fn(NF + "dropout2d", IMG, 0.5)
fn(NF + "dropout3d", VOL, 0.5)
fn(NF + "alpha_dropout", X, 0.5, True)
fn(NF + "feature_alpha_dropout", IMG, 0.5, True)
PROB = T(domain="unit")
CLS = T((3,), domain="int", high=4)
fn(NF + "mse_loss", X, X)
fn(NF + "l1_loss", X, X)
fn(NF + "smooth_l1_loss", X, X)
fn(NF + "huber_loss", X, X)
fn(NF + "soft_margin_loss", X, T(grad=False))
fn(NF + "cross_entropy", X, CLS)
fn(NF + "nll_loss", X, CLS)
fn(NF + "binary_cross_entropy", PROB, PROB)
fn(NF + "binary_cross_entropy_with_logits", X, PROB)
fn(NF + "kl_div", X, PROB)
fn(NF + "poisson_nll_loss", X, POS)
fn(NF + "gaussian_nll_loss", X, X, POS)
fn(NF + "cosine_similarity", X, X)
fn(NF + "pairwise_distance", X, X)
fn(NF + "cosine_embedding_loss", X, X, T((3,), domain="value", value=[1.0, -1.0, 1.0], grad=False))
fn(NF + "margin_ranking_loss", T((3,)), T((3,)), T((3,), domain="value", value=[1.0, -1.0, 1.0], grad=False))
fn(NF + "hinge_embedding_loss", X, T(domain="value", value=[[1.0, -1.0, 1.0, 1.0]] * 3, grad=False))
fn(NF + "multi_margin_loss", X, CLS)
fn(NF + "multilabel_soft_margin_loss", X, PROB)
fn(NF + "triplet_margin_loss", X, X, X)
fn(NF + "pad", X, (1, 1))
fn(NF + "interpolate", IMG, kw={"scale_factor": 2.0, "mode": "bilinear"})
fn(NF + "interpolate#size", IMG, kw={"size": (7, 7), "mode": "nearest"})
fn(NF + "max_pool1d", SEQ, 2)
fn(NF + "max_pool2d", IMG, 2)
fn(NF + "max_pool3d", VOL, 2)
fn(NF + "avg_pool1d", SEQ, 2)
fn(NF + "avg_pool2d", IMG, 2)
fn(NF + "avg_pool3d", VOL, 2)
fn(NF + "adaptive_avg_pool1d", SEQ, 2)
fn(NF + "adaptive_avg_pool2d", IMG, 2)
fn(NF + "adaptive_max_pool2d", IMG, 2)
fn(NF + "lp_pool2d", T((2, 3, 4, 4), domain="pos"), 2.0, 2)
fn(NF + "pixel_shuffle", T((1, 4, 3, 3)), 2)
fn(NF + "unfold", IMG, 2)
fn(NF + "fold", T((1, 12, 16)), (5, 5), 2)
fn(NF + "grid_sample", IMG, T((2, 4, 4, 2), domain="sym"), kw={"align_corners": False})
fn(NF + "affine_grid", T((2, 2, 3)), (2, 3, 4, 4), kw={"align_corners": False})
fn(NF + "scaled_dot_product_attention", B, B, B)

# ---- torch.* counterparts that users call directly
fn("torch.selu", X)
fn("torch.celu", X)
fn("torch.prelu", X, T((1,), transform=lambda t: t.abs() / 4))
fn("torch.dropout", X, 0.5, True)
fn("torch.layer_norm", X, (4,), T((4,)), T((4,)))
fn("torch.batch_norm", IMG, T((3,)), T((3,)), RUN_MEAN, RUN_VAR, True, 0.1, 1e-5, False)
fn("torch.conv1d", SEQ, T((4, 3, 3)), T((4,)))
fn("torch.conv2d", IMG, T((4, 3, 3, 3)), T((4,)))
fn("torch.embedding", T((5, 4)), T((3, 2), domain="int", high=5))
fn("torch.threshold", X, 0.1, 0.0)


# ---- torch.nn modules
NN = "torch.nn."
for _name in ["ReLU", "ReLU6", "SELU", "CELU", "GELU", "SiLU", "Mish", "Hardswish", "Hardsigmoid", "Hardtanh",
              "Sigmoid", "Tanh", "Softsign", "LogSigmoid", "Tanhshrink", "Softplus", "LeakyReLU", "ELU",
              "Softshrink", "Hardshrink", "Identity", "RReLU"]:
    mod(NN + _name, (), X)
mod(NN + "Threshold", (0.1, 0.0), X)
mod(NN + "PReLU", (), X)
mod(NN + "GLU", (), X)
mod(NN + "Softmax", (1,), X)
mod(NN + "LogSoftmax", (1,), X)
mod(NN + "Softmin", (1,), X)
mod(NN + "Softmax2d", (), IMG)
mod(NN + "Linear", (4, 5), M34)
mod(NN + "Bilinear", (4, 3, 2), M34, T((3, 3)))
mod(NN + "Conv1d", (3, 4, 3), SEQ)
mod(NN + "Conv2d", (3, 4, 3), IMG)
mod(NN + "Conv3d", (2, 3, 2), VOL)
mod(NN + "ConvTranspose1d", (3, 4, 3), SEQ)
mod(NN + "ConvTranspose2d", (3, 4, 3), IMG)
mod(NN + "ConvTranspose3d", (2, 3, 2), VOL)
mod(NN + "BatchNorm1d", (3,), SEQ)
mod(NN + "BatchNorm2d", (3,), IMG)
mod(NN + "BatchNorm3d", (2,), VOL)
mod(NN + "LayerNorm", (4,), X)
mod(NN + "RMSNorm", (4,), X)
mod(NN + "GroupNorm", (1, 3), IMG)
mod(NN + "InstanceNorm1d", (3,), SEQ)
mod(NN + "InstanceNorm2d", (3,), IMG)
mod(NN + "InstanceNorm3d", (2,), VOL)
mod(NN + "LocalResponseNorm", (2,), IMG)
mod(NN + "Dropout", (), X)
mod(NN + "Dropout1d", (), SEQ)
mod(NN + "Dropout2d", (), IMG)
mod(NN + "Dropout3d", (), VOL)
mod(NN + "AlphaDropout", (), X)
mod(NN + "FeatureAlphaDropout", (), IMG)
mod(NN + "Embedding", (5, 4), T((3, 2), domain="int", high=5),
    writes_given=("max_norm", 0.5, "@param:weight"))
mod(NN + "EmbeddingBag", (5, 4), T((2, 3), domain="int", high=5),
    writes_given=("max_norm", 0.5, "@param:weight"))
mod(NN + "MultiheadAttention", (4, 2), T((3, 2, 4)), T((3, 2, 4)), T((3, 2, 4)))
mod(NN + "LSTM", (4, 5), T((3, 2, 4)), TL([T((1, 2, 5)), T((1, 2, 5))]))  # hx = (h0, c0)
mod(NN + "GRU", (4, 5), T((3, 2, 4)), T((1, 2, 5)))
mod(NN + "RNN", (4, 5), T((3, 2, 4)), T((1, 2, 5)))
mod(NN + "LSTMCell", (4, 5), M34, TL([T((3, 5)), T((3, 5))]))
mod(NN + "GRUCell", (4, 5), M34, T((3, 5)))
mod(NN + "RNNCell", (4, 5), M34, T((3, 5)))
mod(NN + "MSELoss", (), X, X)
mod(NN + "L1Loss", (), X, X)
mod(NN + "SmoothL1Loss", (), X, X)
mod(NN + "HuberLoss", (), X, X)
mod(NN + "CrossEntropyLoss", (), X, CLS)
mod(NN + "NLLLoss", (), X, CLS)
mod(NN + "BCELoss", (), PROB, PROB)
mod(NN + "BCEWithLogitsLoss", (), X, PROB)
mod(NN + "KLDivLoss", (), X, PROB)
mod(NN + "CosineSimilarity", (), X, X)
mod(NN + "PairwiseDistance", (), X, X)
mod(NN + "Flatten", (), B)
mod(NN + "Unflatten", (1, (2, 2)), X)
mod(NN + "MaxPool1d", (2,), SEQ)
mod(NN + "MaxPool2d", (2,), IMG)
mod(NN + "AvgPool1d", (2,), SEQ)
mod(NN + "AvgPool2d", (2,), IMG)
mod(NN + "AdaptiveAvgPool2d", (1,), IMG)
mod(NN + "AdaptiveMaxPool2d", (1,), IMG)
mod(NN + "ZeroPad2d", (1,), IMG)
mod(NN + "ConstantPad1d", (1, 0.0), SEQ)
mod(NN + "ReflectionPad1d", (1,), SEQ)
mod(NN + "ReplicationPad1d", (1,), SEQ)
mod(NN + "PixelShuffle", (2,), T((1, 4, 3, 3)))
mod(NN + "TransformerEncoderLayer", (4, 2), T((3, 2, 4)), ctor_kw={"dim_feedforward": 8, "dropout": 0.0})

# ---- the remaining in-place Tensor methods (every ``dir(torch.Tensor)`` name ending in one "_"
# that writes self per its ATen schema)
INT = T(domain="int", high=7)
INT1 = T(domain="int", high=5)
meth("addbmm_", T((3, 5)), T((2, 3, 4)), T((2, 4, 5)))
meth("addmm_", T((3, 5)), M34, M45)
meth("addmv_", T((3,)), M34, V4)
meth("addr_", M34, T((3,)), V4)
meth("baddbmm_", T((2, 3, 5)), T((2, 3, 4)), T((2, 4, 5)))
meth("as_strided_", X, (2, 2), (1, 1))
for _name in ["bitwise_and_", "bitwise_or_", "bitwise_xor_", "bitwise_left_shift_", "bitwise_right_shift_",
              "gcd_", "lcm_", "__iand__", "__ior__", "__ixor__", "__ilshift__", "__irshift__"]:
    meth(_name, INT, INT1, params=("self", "other") if _name.startswith("__") else None)
meth("bitwise_not_", INT)
meth("cauchy_", X)
meth("geometric_", X, 0.5)
meth("log_normal_", X)
meth("conj_physical_", X)
meth("cumprod_", X, 1)
meth("cumsum_", X, 1)
for _name in ["eq_", "ne_", "ge_", "gt_", "le_", "lt_", "greater_", "greater_equal_", "less_", "less_equal_",
              "not_equal_", "logical_and_", "logical_or_", "logical_xor_", "heaviside_"]:
    meth(_name, X, X)
meth("logical_not_", X)
meth("fill_diagonal_", T((4, 4)), 1.0)
meth("floor_divide_", X, POS)
meth("igamma_", POS, POS)
meth("igammac_", POS, POS)
meth("index_put_", X, TL([T((2,), domain="value", value=[0, 2], dtype=torch.int64)]), T((2, 4)))
meth("index_reduce_", X, 0, T((2,), domain="value", value=[0, 2], dtype=torch.int64), T((2, 4)), "prod")
meth("mvlgamma_", T(domain="gt1"), 1)
meth("polygamma_", POS, 1)
meth("put_", X, T((3,), domain="value", value=[0, 5, 7], dtype=torch.int64), T((3,)))
meth("renorm_", X, 2, 0, 1.0)
meth("scatter_reduce_", X, 1, IDX, T((3, 2)), "sum")
meth("squeeze_", T((3, 1, 4)))
meth("unsqueeze_", X, 0)
meth("swapaxes_", X, 0, 1)
meth("swapdims_", X, 0, 1)
meth("t_", X)
meth("transpose_", X, 0, 1)
meth("tril_", T((4, 4)))
meth("triu_", T((4, 4)))
meth("resize_", T(grad=False), 12)
meth("resize_as_", T(grad=False), T((2, 2), grad=False))
meth("set_", T(grad=False), T((2, 2), grad=False))
meth("detach_", X)
meth("requires_grad_", X)


# ---- "a Python number in place of a tensor" forms
NUMBER = "number"


def number_variants(api: Api) -> List[Api]:
    """Candidate ``<name>#<param>=number`` forms: ``api`` called with a Python number for one tensor
    parameter (``x ** 2``, ``x.pow_(2)``, ``torch.clamp(x, 0, 1)``). Torch dispatches these to other
    overloads (pow.Tensor_Scalar...) which may save less; the generator keeps a form only when its
    probed facts differ from the all-tensor form's."""
    import dataclasses

    if "#" in api.name or api.kind == "module" or not api.args:
        return []
    first = api.args[0][0]
    out = []
    for n, s in api.all_args():
        if not isinstance(s, T) or n == first or not s.can_grad:
            continue
        out.append(
            dataclasses.replace(
                api,
                name=f"{api.name}#{n}={NUMBER}",
                args=[(a, 2.0 if a == n else sp) for a, sp in api.args],
                kwargs=[(a, 2.0 if a == n else sp) for a, sp in api.kwargs],
            )
        )
    return out


def _sparse_specs():
    sparse = T((3, 3), grad=False, transform=lambda t: t.to_sparse())
    meth("resize_as_sparse_", sparse, sparse)
    meth("sparse_resize_", sparse, (3, 3), 2, 0)
    meth("sparse_resize_and_clear_", sparse, (3, 3), 2, 0)


_sparse_specs()


# ---- more forms of indexing
meth("__setitem__#key=tensor", X, T((2,), domain="value", value=[0, 2], dtype=torch.int64), T((2, 4)),
     params=("self", "key", "value"), always_inplace=True)


# ---- attributes that return tensors (``x.T``, ``x.data``): kind "attribute", read, not called
def attr(name: str, spec: T) -> Api:
    api = Api(
        name="torch.Tensor." + name, kind="attribute", fn=lambda t, _n=name: getattr(t, _n), params=["self"]
    )
    _bind(api, [spec], {})
    return _add(api)


attr("T", X)
attr("mT", X)
attr("H", X)
attr("mH", X)
attr("data", X)
attr("real", X)


# ---- Tensor methods named like in-place ops that do not move the version counter (probed: their
# entries carry no "inplace"): apply_/map_/map2_ write the data behind autograd's back (refused on
# tensors that require grad), share_memory_ moves the storage
NOGRAD = T(grad=False)
meth("apply_", NOGRAD, lambda v: v + 1)
meth("map_", NOGRAD, NOGRAD, lambda a, b: a + b)
meth("map2_", NOGRAD, NOGRAD, NOGRAD, lambda a, b, c: a + b + c)
meth("share_memory_", NOGRAD)


# ---- out-of-place counterparts of in-place indexing ops, and fresh-tensor factories
IDX2 = T((2,), domain="value", value=[0, 2], dtype=torch.int64)
meth("scatter", X, 1, IDX, T((3, 2)))
meth("scatter_add", X, 1, IDX, T((3, 2)))
meth("index_add", X, 0, IDX2, T((2, 4)))
meth("index_copy", X, 0, IDX2, T((2, 4)))
meth("index_fill", X, 0, IDX2, 1.0)
meth("index_put", X, TL([IDX2]), T((2, 4)))
meth("masked_scatter", X, MASK, T((12,)))
fn("torch.index_add", X, 0, IDX2, T((2, 4)))
fn("torch.repeat_interleave", X, 2)
meth("repeat_interleave", X, 2)
meth("sum_to_size", X, 1, 4)
meth("new_zeros", X, (2, 2))
meth("new_ones", X, (2, 2))
meth("new_full", X, (2, 2), 1.0)
meth("new_empty", X, (2, 2))
meth("new_tensor", X, [1.0, 2.0])
fn("torch.zeros_like", X)
fn("torch.ones_like", X)
fn("torch.empty_like", X)
fn("torch.full_like", X, 1.0)
fn("torch.rand_like", X)
fn("torch.randn_like", X)


# ---- names torch exports that ATen's derivatives.yaml covers but the lists above left out (the ninth
# landing's sweep of ``dir(torch)``, ``dir(torch.Tensor)``, ``torch.nn.functional``, ``torch.special`` and
# ``torch.nn`` against the ``aten`` layer). Without an entry the analysis knows nothing of a function, and
# takes an unseen module to save its positional inputs (nn.Upsample saves nothing, nn.ReflectionPad2d its
# input: only a probe tells them apart).
for _name, _dom in [("expm1", X), ("exp2", X), ("log1p", POS), ("erf", X), ("erfc", X), ("erfinv", SYM),
                    ("erfcx", X), ("digamma", POS), ("psi", POS), ("gammaln", POS), ("logit", UNIT),
                    ("sinc", X), ("i0", X), ("i0e", X), ("i1", X), ("i1e", X), ("ndtr", X), ("ndtri", UNIT),
                    ("log_ndtr", X), ("entr", POS), ("round", X)]:
    fn("torch.special." + _name, _dom)
fn("torch.special.logsumexp", X, 1)
fn("torch.special.softmax", X, 1)
fn("torch.special.log_softmax", X, 1)
fn("torch.special.xlogy", X, POS)
fn("torch.special.xlog1py", X, POS)
fn("torch.special.polygamma", 1, POS)
fn("torch.special.multigammaln", GT1, 2)

fn("torch.addr", X, T((3,)), V4)
meth("addr", X, T((3,)), V4)
fn("torch.addbmm", T((3, 5)), T((2, 3, 4)), T((2, 4, 5)))
meth("addbmm", T((3, 5)), T((2, 3, 4)), T((2, 4, 5)))
meth("addmv", T((3,)), M34, V4)
meth("baddbmm", T((2, 3, 5)), T((2, 3, 4)), T((2, 4, 5)))
fn("torch.aminmax", X)
meth("aminmax", X)
fn("torch.mode", X)
meth("mode", X)
fn("torch.nanmedian", X)
meth("nanmedian", X)
meth("kthvalue", X, 2)
meth("cummax", X, 1)
meth("cummin", X, 1)
meth("dist", X, X)
meth("trace", T((4, 4)))
meth("diag_embed", V4)
fn("torch.renorm", X, 2, 0, 1.0)
meth("renorm", X, 2, 0, 1.0)
fn("torch.vdot", V4, V4)
meth("vdot", V4, V4)
fn("torch.hardshrink", X)
meth("hardshrink", X)
fn("torch.index_put", X, TL([IDX2]), T((2, 4)))
fn("torch.index_copy", X, 0, IDX2, T((2, 4)))
fn("torch.index_fill", X, 0, IDX2, 1.0)
fn("torch.masked_scatter", X, MASK, T((12,)))
# scatter_reduce and index_reduce save the same tensors whatever ``reduce`` names (one ATen backward formula
# takes them all; probed with "sum" on scatter_reduce_, the in-place form, above)
fn("torch.scatter_reduce", X, 1, IDX, T((3, 2)), "amax")
meth("scatter_reduce", X, 1, IDX, T((3, 2)), "sum")
fn("torch.index_reduce", X, 0, IDX2, T((2, 4)), "prod")
meth("index_reduce", X, 0, IDX2, T((2, 4)), "mean")
meth("take", X, IDX2)
meth("masked_select", X, MASK)
fn("torch.put", X, IDX2, T((2,)))
meth("put", X, IDX2, T((2,)))
fn("torch.rot90", X)
meth("rot90", X)
fn("torch.pixel_shuffle", T((1, 4, 3, 3)), 2)
fn("torch.pixel_unshuffle", T((1, 1, 4, 4)), 2)
fn("torch.channel_shuffle", T((1, 4, 2, 2)), 2)
fn("torch.as_strided", X, (2, 2), (4, 1))
fn("torch.split_with_sizes", X, [1, 3], 1)
meth("split_with_sizes", X, [1, 3], 1)
fn("torch.linalg.diagonal", X)
fn("torch.slice_scatter", X, T((3, 2)), 1, 0, 2)
meth("slice_scatter", X, T((3, 2)), 1, 0, 2)
fn("torch.select_scatter", X, V4, 0, 0)
meth("select_scatter", X, V4, 0, 0)
fn("torch.diagonal_scatter", X, T((3,)))
meth("diagonal_scatter", X, T((3,)))
fn("torch.cholesky_solve", T((3, 2)), T((3, 3), domain="spd"))
meth("cholesky_solve", T((3, 2)), T((3, 3), domain="spd"))
fn("torch.cholesky_inverse", T((3, 3), domain="spd"))
meth("cholesky_inverse", T((3, 3), domain="spd"))
meth("cholesky", T((3, 3), domain="spd"))
fn("torch.triangular_solve", T((3, 2)), T((3, 3), domain="spd"))
meth("triangular_solve", T((3, 2)), T((3, 3), domain="spd"))
fn("torch.mvlgamma", GT1, 2)
meth("mvlgamma", GT1, 2)
fn("torch.polygamma", 1, POS)
meth("polygamma", POS, 1)
fn("torch.max_pool2d", IMG, 2)
fn("torch.binary_cross_entropy_with_logits", X, PROB)
fn("torch.fill", X, 1.0)
fn("torch.fill_", X, 1.0, always_inplace=True)
fn("torch.zero_", X, always_inplace=True)
fn("torch.index_put_", X, TL([IDX2]), T((2, 4)), always_inplace=True)
fn("torch.clamp_min_", X, 0.0, always_inplace=True)
fn("torch.clamp_max_", X, 0.0, always_inplace=True)
fn("torch.threshold_", X, 0.1, 0.0, always_inplace=True)
fn("torch.celu_", X, always_inplace=True)
fn("torch.xlogy_", X, POS, always_inplace=True)
fn("torch.addmv_", T((3,)), M34, V4, always_inplace=True)

fn(NF + "adaptive_avg_pool3d", VOL, 1)
fn(NF + "adaptive_max_pool1d", SEQ, 2)
fn(NF + "adaptive_max_pool3d", VOL, 1)
fn(NF + "max_pool1d_with_indices", SEQ, 2)
fn(NF + "max_pool2d_with_indices", IMG, 2)
fn(NF + "max_pool3d_with_indices", VOL, 2)
fn(NF + "adaptive_max_pool2d_with_indices", IMG, 2)
fn(NF + "pixel_unshuffle", T((1, 1, 4, 4)), 2)
fn(NF + "channel_shuffle", T((1, 4, 2, 2)), 2)
fn(NF + "gumbel_softmax", X)
fn(NF + "pdist", M34)
fn(NF + "lp_pool1d", T((2, 3, 4), domain="pos"), 2.0, 2)
fn(NF + "upsample", IMG, kw={"scale_factor": 2})
fn(NF + "upsample_nearest", IMG, kw={"scale_factor": 2})
fn(NF + "upsample_bilinear", IMG, kw={"scale_factor": 2})
fn(NF + "triplet_margin_with_distance_loss", X, X, X)

SIGNS = T((3,), domain="value", value=[1.0, -1.0, 1.0], grad=False)
SIGNS34 = T(grad=False, transform=lambda t: torch.where(t > 0, 1.0, -1.0).to(t.dtype))
mod(NN + "Upsample", (), IMG, ctor_kw={"scale_factor": 2})
mod(NN + "UpsamplingNearest2d", (), IMG, ctor_kw={"scale_factor": 2})
mod(NN + "UpsamplingBilinear2d", (), IMG, ctor_kw={"scale_factor": 2})
mod(NN + "ReflectionPad2d", (1,), IMG)
mod(NN + "ReflectionPad3d", (1,), VOL)
mod(NN + "ReplicationPad2d", (1,), IMG)
mod(NN + "ReplicationPad3d", (1,), VOL)
mod(NN + "ConstantPad2d", (1, 0.0), IMG)
mod(NN + "ConstantPad3d", (1, 0.0), VOL)
mod(NN + "ZeroPad1d", (1,), SEQ)
mod(NN + "ZeroPad3d", (1,), VOL)
mod(NN + "CircularPad1d", (1,), SEQ)
mod(NN + "CircularPad2d", (1,), IMG)
mod(NN + "CircularPad3d", (1,), VOL)
mod(NN + "AdaptiveAvgPool1d", (1,), SEQ)
mod(NN + "AdaptiveAvgPool3d", (1,), VOL)
mod(NN + "AdaptiveMaxPool1d", (1,), SEQ)
mod(NN + "AdaptiveMaxPool3d", (1,), VOL)
mod(NN + "MaxPool3d", (2,), VOL)
mod(NN + "AvgPool3d", (2,), VOL)
mod(NN + "LPPool1d", (2.0, 2), T((2, 3, 4), domain="pos"))
mod(NN + "LPPool2d", (2.0, 2), T((2, 3, 4, 4), domain="pos"))
mod(NN + "PixelUnshuffle", (2,), T((1, 1, 4, 4)))
mod(NN + "ChannelShuffle", (2,), T((1, 4, 2, 2)))
mod(NN + "Unfold", (2,), IMG)
mod(NN + "Fold", ((5, 5), 2), T((1, 12, 16)))
mod(NN + "TripletMarginLoss", (), X, X, X)
mod(NN + "MarginRankingLoss", (), T((3,)), T((3,)), SIGNS)
mod(NN + "CosineEmbeddingLoss", (), X, X, SIGNS)
mod(NN + "HingeEmbeddingLoss", (), X, SIGNS34)
mod(NN + "SoftMarginLoss", (), X, SIGNS34)
mod(NN + "MultiLabelSoftMarginLoss", (), X, PROB)
mod(NN + "MultiMarginLoss", (), X, CLS)
mod(NN + "GaussianNLLLoss", (), X, X, POS)
mod(NN + "PoissonNLLLoss", (), X, POS)
mod(NN + "TransformerDecoderLayer", (4, 2), T((3, 2, 4)), T((3, 2, 4)),
    ctor_kw={"dim_feedforward": 8, "dropout": 0.0})
