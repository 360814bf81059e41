"""Runtime probes: the judge of what a Python API saves for backward (imports torch; generator/tests only).

For one :class:`~tools.knowledge.surface.Api` the probe runs the call many times on small fresh
inputs. For every non-empty subset of the tensor parameters that require grad, and for every tensor
parameter and the result, it bumps that tensor's version counter after the call (any bump counts,
exactly like an in-place op) and runs backward through the result. When backward raises "one of the
variables needed for gradient computation has been modified by an inplace operation", the op saved
that tensor under that subset. The subsets that fire give the ``when`` condition.

Inputs that require grad are non-leaf tensors made by ``leaf.clone()`` (clone saves nothing), so an
in-place change of them is allowed and the only saved tensors in the graph are the probed op's.
"""

from __future__ import annotations

import dataclasses
import itertools
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence, Set, Tuple

import torch

from tools.knowledge.surface import MODULE_PARAMS, TL, Api, Star, T, is_tensor_spec

VERSION_ERROR = "modified by an inplace operation"


class ProbeError(Exception):
    """The probe itself could not run (a bad surface spec); never a fact about torch."""


@dataclass
class ProbeResult:
    saves: List[Dict[str, Any]] = field(default_factory=list)
    view_of: List[str] = field(default_factory=list)
    may_alias: List[str] = field(default_factory=list)
    differentiable: bool = True
    inplace_saves: Optional[List[Dict[str, Any]]] = None
    modifies_bumps: Optional[bool] = None  # the in-place form bumped the modified tensor's version
    param_saves: List[Dict[str, Any]] = field(default_factory=list)  # modules: own parameters saved
    no_backward: bool = False  # backward raised "not implemented"
    multi_view: bool = False  # its outputs are views torch forbids to modify in place (split, unbind)
    returns: int = 1  # how many values the Python call returns (torch.sort: 2; F.nll_loss: 1, as ATen's 2)
    # the tensor inputs whose requiring grad alone makes the result require grad (not gather's index)
    grad_inputs: List[str] = field(default_factory=list)
    writes_given: Optional[bool] = None  # api.writes_given: the keyword given, the call bumped its target
    notes: List[str] = field(default_factory=list)


# ---------------------------------------------------------------------------------------------- inputs


def make_tensor(spec: T, seed: int) -> torch.Tensor:
    g = torch.Generator().manual_seed(seed)
    dtype = spec.dtype or torch.float64
    shape = spec.shape
    d = spec.domain
    if d == "int":
        t = torch.randint(0, spec.high, shape, generator=g)
        return t.to(dtype) if spec.dtype is not None else t
    if d == "bool":
        return torch.rand(shape, generator=g) > 0.5
    if d == "value":
        return torch.tensor(spec.value, dtype=dtype)
    base = torch.rand(shape, generator=g, dtype=torch.float64)
    if d == "real":
        t = base * 4 - 2
    elif d == "pos":
        t = base + 0.5
    elif d == "unit":  # open (0, 1)
        t = base * 0.8 + 0.1
    elif d == "sym":  # (-1, 1)
        t = base * 1.6 - 0.8
    elif d == "gt1":
        t = base + 1.5
    elif d == "spd":  # symmetric positive definite (last two dims square)
        a = base * 2 - 1
        t = a @ a.transpose(-1, -2) + shape[-1] * torch.eye(shape[-1], dtype=torch.float64)
    else:
        raise ProbeError(f"unknown domain {d!r}")
    t = t.to(dtype)
    if spec.transform is not None:
        t = spec.transform(t)
    return t


def _is_tensor(x) -> bool:
    return isinstance(x, torch.Tensor)


def _flat_tensors(out) -> List[torch.Tensor]:
    if _is_tensor(out):
        return [out]
    if isinstance(out, (tuple, list)):
        res: List[torch.Tensor] = []
        for o in out:
            res.extend(_flat_tensors(o))
        return res
    if hasattr(out, "_fields"):  # namedtuple-like return types (torch.return_types.*)
        return _flat_tensors(tuple(out))
    return []


@dataclass
class _Call:
    args: Dict[str, Any]  # param name -> value actually passed
    leaves: List[torch.Tensor]
    module: Optional[torch.nn.Module]
    out: Any


def _prepare(api: Api, grad: frozenset, seed: int, inplace: bool,
             elements: Optional[Dict[str, Set[int]]] = None) -> Tuple[Dict, List, Any]:
    """Fresh argument values. Params in ``grad`` require grad (non-leaf clones of leaves); of a list
    parameter in ``elements``, only the elements at those indices do."""
    values: Dict[str, Any] = {}
    leaves: List[torch.Tensor] = []

    def build(spec: T, sd: int, want: bool) -> torch.Tensor:
        t = make_tensor(spec, sd)
        if want and spec.can_grad:
            leaf = t.detach().clone().requires_grad_(True)
            leaves.append(leaf)
            t = leaf.clone()
        if spec.after is not None:
            t = spec.after(t)
        return t

    for i, (name, spec) in enumerate(api.all_args()):
        if isinstance(spec, T):
            values[name] = build(spec, seed + 17 * i, name in grad)
        elif isinstance(spec, TL):
            granted = (elements or {}).get(name)
            values[name] = [build(s, seed + 17 * i + 5 * j, name in grad or (granted is not None and j in granted))
                            for j, s in enumerate(spec.items)]
        else:
            values[name] = spec
    module = None
    if api.kind == "module":
        torch.random.default_generator.manual_seed(seed)
        ctor_kw = dict(api.ctor_kwargs)
        if inplace and api.inplace_kwarg:
            ctor_kw[api.inplace_kwarg] = True
        module = api.module_cls(*api.ctor_args, **ctor_kw).to(torch.float64)
        if api.module_setup is not None:
            api.module_setup(module)
        want = MODULE_PARAMS in grad
        for p in module.parameters():
            p.requires_grad_(want)
            if want:
                leaves.append(p)
    return values, leaves, module


def _invoke(api: Api, values: Dict[str, Any], module, inplace: bool, seed: int):
    torch.random.default_generator.manual_seed(seed)
    pos = []
    for n, spec in api.args:
        if isinstance(spec, Star) or (isinstance(spec, TL) and spec.star):
            pos.extend(values[n] if isinstance(spec, TL) else spec.items)
        else:
            pos.append(values[n])
    kw = {n: values[n] for n, _ in api.kwargs}
    if inplace and api.inplace_kwarg and api.kind != "module":
        kw[api.inplace_kwarg] = True
    if api.kind == "module":
        return module(*pos, **kw)
    out = api.fn(*pos, **kw)
    if out is None and api.modifies is not None:  # __setitem__
        out = values[api.modifies]
    return out


def _backward(out, leaves) -> Optional[str]:
    """Run backward through every floating output that requires grad; return the error text or None."""
    outs = [o for o in _flat_tensors(out) if o.requires_grad and (o.is_floating_point() or o.is_complex())]
    if not outs:
        return "no-grad"
    try:
        torch.autograd.backward(outs, [torch.ones_like(o) for o in outs])
    except RuntimeError as e:  # NotImplementedError is a RuntimeError
        msg = str(e)
        if VERSION_ERROR in msg:
            return "version"
        if "not implemented" in msg:
            return "notimpl"  # no backward formula: nothing can be checked, nothing is saved
        if "This view is the output of a function that returns multiple views" in msg:
            return "multiview"  # unbind/split outputs: their own error, not a saved tensor
        raise ProbeError(f"backward failed: {msg.splitlines()[0]}") from None
    return None


def _bump(t: torch.Tensor) -> None:
    torch.autograd.graph.increment_version(t)


def _subsets(names: Sequence[str]):
    for r in range(1, len(names) + 1):
        for combo in itertools.combinations(names, r):
            yield frozenset(combo)


def _when(
    fired: Dict[frozenset, bool], names: Sequence[str], target: str, api: Api, notes: List[str]
) -> Optional[List[str]]:
    """Turn per-subset outcomes into an OR-condition (the schema's ``when``); None if never saved."""
    if not any(fired.values()):
        return None
    singles = [n for n in names if fired.get(frozenset([n]), False)]
    exact = all(bool(s & set(singles)) == f for s, f in fired.items())
    if not exact:
        # Not expressible as "any of": keep every parameter of every firing subset (over-approximate).
        extra = sorted({n for s, f in fired.items() if f for n in s} - set(singles))
        notes.append(
            f"{api.name}: save of {target!r} is not an any-of condition over {list(names)} "
            f"(fires for {[sorted(s) for s, f in fired.items() if f]}); recorded when={singles + extra}"
        )
        singles = [n for n in names if n in set(singles) | set(extra)]
    return singles


def _victims(values: Dict[str, Any], name: str) -> List[torch.Tensor]:
    v = values[name]
    return list(v) if isinstance(v, list) else [v]


def _victims_of(target: str, values: Dict[str, Any], out, module) -> List[torch.Tensor]:
    if target == "result":
        return _flat_tensors(out)
    if target.startswith("@param:"):
        return [dict(module.named_parameters())[target[7:]]]
    return _victims(values, target)


def _module_params(api: Api) -> List[str]:
    if api.kind != "module":
        return []
    m = api.module_cls(*api.ctor_args, **api.ctor_kwargs)
    return [n for n, _ in m.named_parameters()]


def _run_saves(
    api: Api, inplace: bool, seed: int, notes: List[str], flags: Dict[str, Any]
) -> Tuple[List[Dict[str, Any]], List[Dict[str, Any]]]:
    """Probe which tensors the (in-place or out-of-place) form saves, and under which grad subsets.
    Returns (saves of parameters/result, saves of a module's own parameters)."""
    grad_names = api.grad_params()
    views = flags.get("views") or set()
    tensor_names = [n for n, s in api.all_args() if is_tensor_spec(s)]
    pnames = ["@param:" + n for n in _module_params(api)]
    target_names = tensor_names + ["result"] + pnames
    fired: Dict[str, Dict[frozenset, bool]] = {t: {} for t in target_names}
    modified = api.modifies if (inplace or api.always_inplace) else None
    for subset in _subsets(grad_names):
        for target in target_names:
            if modified is not None and target == modified:
                continue  # the modified tensor *is* the result after the call
            values, leaves, module = _prepare(api, subset, seed, inplace)
            out = _invoke(api, values, module, inplace, seed)
            victims = _victims_of(target, values, out, module)
            fire = False
            for k in range(len(victims)):
                if k > 0:  # a fresh run per output/element so the bumps do not mix
                    values, leaves, module = _prepare(api, subset, seed, inplace)
                    out = _invoke(api, values, module, inplace, seed)
                victims = _victims_of(target, values, out, module)
                _bump(victims[k])
                verdict = _backward(out, leaves)
                if verdict == "notimpl":
                    flags["no_backward"] = True
                if verdict == "multiview" and not (target in views or (target == "result" and views)):
                    # a multi-output view (split/chunk/unbind) of this tensor was kept for
                    # backward: changing the tensor breaks backward just like a saved tensor
                    notes.append(
                        f"{api.name}: changing {target!r} breaks backward through a multi-output view"
                    )
                    verdict = "version"
                if verdict == "version":
                    fire = True
                    break
            fired[target][subset] = fire
    saves, psaves = [], []
    for target in target_names:
        if not fired[target]:
            continue
        when = _when(fired[target], grad_names, target, api, notes)
        if when is None:
            continue
        if target.startswith("@param:"):
            psaves.append({"target": target[7:], "when": when})
        else:
            save = {"target": target, "when": when}
            if not inplace and when == [target] and _saved_for_others(api, target, seed):
                save["each"] = "others"
            saves.append(save)
    return saves, psaves


def _saved_for_others(api: Api, target: str, seed: int) -> bool:
    """For a list parameter (``einsum``'s operands): is each element saved exactly when some *other*
    element requires grad, as a product's factors are?"""
    spec = dict(api.all_args()).get(target)
    if not isinstance(spec, TL) or len(spec.items) < 2 or not all(s.can_grad for s in spec.items):
        return False
    count = len(spec.items)
    for index in range(count):
        others = {j for j in range(count) if j != index}
        if not _element_saved(api, target, index, others, seed) or _element_saved(api, target, index, {index}, seed):
            return False
    return True


def _element_saved(api: Api, target: str, index: int, granted: Set[int], seed: int) -> bool:
    """Does bumping element ``index`` break backward when only the ``granted`` elements require grad?"""
    values, leaves, module = _prepare(api, frozenset(), seed, False, elements={target: granted})
    out = _invoke(api, values, module, False, seed)
    _bump(values[target][index])
    return _backward(out, leaves) == "version"


def probe(api: Api, seed: int = 0) -> ProbeResult:
    """Everything the Python table records about ``api``, measured (single-threaded: the inputs are
    tiny and intra-op threads only contend)."""
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _probe(api, seed)
    finally:
        torch.set_num_threads(threads)


def _probe(api: Api, seed: int) -> ProbeResult:
    res = ProbeResult()
    notes = res.notes
    grad_names = api.grad_params()
    flags: Dict[str, Any] = {}
    # --- view / alias: with nothing requiring grad and with everything requiring grad
    for grad in (frozenset(), frozenset(grad_names)):
        values, leaves, module = _prepare(api, grad, seed, inplace=False)
        out = _invoke(api, values, module, False, seed)
        outs = _flat_tensors(out)
        for name, spec in api.all_args():
            if not is_tensor_spec(spec) or (api.always_inplace and name == api.modifies):
                continue
            for arg in _victims(values, name):
                if any(o is arg for o in outs):
                    if name not in res.may_alias:
                        res.may_alias.append(name)
                    continue
                before = [o._version for o in outs]
                _bump(arg)
                if outs and any(o._version != b for o, b in zip(outs, before)):
                    if name not in res.view_of:
                        res.view_of.append(name)
    # --- saves of the plain form (for always-in-place APIs this *is* the in-place form).
    # With no input that can require grad (integer/bool ops) nothing can be saved.
    views = set(res.view_of) | set(res.may_alias)
    flags["views"] = views
    saves, psaves = _run_saves(api, inplace=False, seed=seed, notes=notes, flags=flags)
    res.saves = saves
    res.param_saves = psaves
    # --- differentiable: does the result require grad when every tensor input does?
    values, leaves, module = _prepare(api, frozenset(grad_names), seed, inplace=False)
    out = _invoke(api, values, module, False, seed)
    outs = _flat_tensors(out)
    res.differentiable = bool(grad_names) and any(o.requires_grad for o in outs)
    res.returns = len(out) if isinstance(out, (tuple, list)) else 1
    if res.differentiable and api.kind != "module":
        res.grad_inputs = [name for name in grad_names if _carries_grad(api, name, seed)]
    # --- in-place forms
    if api.always_inplace:
        res.inplace_saves = saves
        values, leaves, module = _prepare(api, frozenset(grad_names), seed, inplace=False)
        target = values[api.modifies]
        v0 = target._version
        out = _invoke(api, values, module, False, seed)
        res.modifies_bumps = target._version != v0
        if not res.modifies_bumps:
            notes.append(f"{api.name}: did not bump the version of {api.modifies!r}")
    elif api.inplace_kwarg:
        isaves, _ = _run_saves(api, inplace=True, seed=seed, notes=notes, flags=flags)
        res.inplace_saves = isaves
        values, leaves, module = _prepare(api, frozenset(grad_names), seed, inplace=True)
        target = values[api.modifies]
        v0 = target._version
        out = _invoke(api, values, module, True, seed)
        res.modifies_bumps = target._version != v0 and any(o is target for o in _flat_tensors(out))
        if not res.modifies_bumps:
            notes.append(f"{api.name}: {api.inplace_kwarg}=True did not modify {api.modifies!r} in place")
    if api.writes_given:
        res.writes_given = _given_write_bumps(api, seed)
        if not res.writes_given:
            notes.append(f"{api.name}: {api.writes_given[0]}= did not write {api.writes_given[2]!r} in place "
                         "(or it did without it)")
    res.no_backward = bool(flags.get("no_backward"))
    if res.view_of:
        res.multi_view = _multi_view(api, grad_names, seed)
    return res


def _carries_grad(api: Api, name: str, seed: int) -> bool:
    """With only ``name`` requiring grad, does the result require grad?"""
    try:
        values, leaves, module = _prepare(api, frozenset({name}), seed, inplace=False)
        outs = _flat_tensors(_invoke(api, values, module, False, seed))
    except Exception:  # the call needs more than one input with grad: count it, never guess it away
        return True
    return any(o.requires_grad for o in outs)


def _given_write_bumps(api: Api, seed: int) -> bool:
    """With the keyword of ``api.writes_given`` given (``max_norm=0.5``), does the call bump the version
    of the tensor it names, and without it not?"""
    keyword, value, target = api.writes_given
    bumped = []
    for given in (False, True):
        probed = api
        if given and api.kind == "module":
            probed = dataclasses.replace(api, ctor_kwargs={**api.ctor_kwargs, keyword: value})
        elif given:
            probed = dataclasses.replace(api, kwargs=list(api.kwargs) + [(keyword, value)])
        values, _leaves, module = _prepare(probed, frozenset(probed.grad_params()), seed, inplace=False)
        if target.startswith("@param:"):
            tensor = dict(module.named_parameters())[target[len("@param:"):]]
        else:
            tensor = values[target]
        before = tensor._version
        _invoke(probed, values, module, False, seed)
        bumped.append(tensor._version != before)
    return bumped == [False, True]


MULTI_VIEW_ERROR = "output of a function that returns multiple views"


def _multi_view(api: Api, grad_names, seed: int) -> bool:
    """Does torch refuse an in-place change of an output (``a, b = x.chunk(2); a.mul_(2)`` raises at once
    when ``x`` requires grad)?"""
    values, leaves, module = _prepare(api, frozenset(grad_names), seed, inplace=False)
    out = _invoke(api, values, module, False, seed)
    outs = [o for o in _flat_tensors(out) if o.requires_grad and (o.is_floating_point() or o.is_complex())]
    if len(outs) < 2:
        return False
    try:
        outs[0].mul_(1)
    except RuntimeError as error:
        return MULTI_VIEW_ERROR in str(error)
    return False


# ------------------------------------------------------------------------------ in-place method check


def _schema_inplace(name: str) -> list:
    """ATen schemas of ``aten::<name>`` whose ``self`` is written (``Tensor(a!) self``)."""
    try:
        schemas = torch._C._jit_get_schemas_for_operator("aten::" + name)
    except Exception:
        return []
    res = []
    for s in schemas:
        if s.arguments and s.arguments[0].name == "self":
            ai = s.arguments[0].alias_info
            if ai is not None and ai.is_write:
                res.append(s)
    return res


def _fill(arg, like: torch.Tensor):
    ty = str(arg.type)
    if "Tensor" in ty and "[]" not in ty:
        return like.clone()
    if ty.startswith("Scalar") or ty in ("float", "float?"):
        return 1
    if ty in ("int", "SymInt", "int?", "SymInt?"):
        return 0
    if ty in ("int[]", "SymInt[]", "int[1]", "int[2]"):
        return list(like.shape)
    if ty.startswith("bool"):
        return False
    if ty.startswith("str"):
        return None
    raise ValueError(ty)


def check_inplace_method(name: str, probed_bumps=None):
    """(modifies self?, note) for ``torch.Tensor.<name>``: in place per the ATen schema *and* the
    version counter bumps when called. The surface entry's own probe is used when there is one."""
    schemas = _schema_inplace(name)
    if not schemas:
        return False, "no ATen schema writes self (not a version-bumping in-place op)"
    if probed_bumps and name in probed_bumps:
        if probed_bumps[name]:
            return True, ""
        return False, "in place per schema but did not bump the version counter when probed"
    method = getattr(torch.Tensor, name)
    makers = [
        lambda: torch.rand(3, 4, dtype=torch.float64) + 0.5,
        lambda: torch.randint(1, 4, (3, 4)),
        lambda: torch.rand(3, 4) > 0.5,
        lambda: torch.rand(4, 4, dtype=torch.float64) + 4 * torch.eye(4, dtype=torch.float64),
    ]
    for s in schemas:
        for mk in makers:
            like = mk()
            try:
                args = [
                    _fill(a, like)
                    for a in s.arguments[1:]
                    if not a.kwarg_only and a.default_value is None and not str(a.type).endswith("?")
                ]
            except ValueError:
                continue
            t = mk()
            v0 = t._version
            try:
                with torch.no_grad():
                    method(t, *args)
            except Exception:
                continue
            if t._version != v0:
                return True, ""
            return False, "in place per schema but did not bump the version counter when probed"
    return True, "in place per schema; could not be called generically (not probed)"
