"""Regenerate ``ops.json`` from the installed torch: ``python -m tools.knowledge.generate``.

Two layers (see docs/knowledge.md):

* ``aten``: every differentiable ATen overload, read from torchgen's derivatives.yaml /
  native_functions.yaml (what each overload saves, under which condition, view/in-place/out).
* ``python``: the Python surface (:mod:`surface`), every entry measured by :mod:`probes`.

Only this module, ``probes`` and ``surface`` import torch; the linter reads the JSON.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import sys
import warnings
from typing import Any, Dict, List, Optional, Tuple

OPS_JSON = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "inplace_lint", "knowledge", "ops.json")


# ------------------------------------------------------------------------------------------ ATen layer


def _packaged_paths() -> Tuple[str, str, str]:
    import torchgen

    root = os.path.join(os.path.dirname(torchgen.__file__), "packaged")
    return (
        os.path.join(root, "autograd", "derivatives.yaml"),
        os.path.join(root, "ATen", "native", "native_functions.yaml"),
        os.path.join(root, "ATen", "native", "tags.yaml"),
    )


def _is_tensor_type(t) -> bool:
    """A C++ type that holds tensors (Tensor, optional<Tensor>, TensorList...), not sizes/dtypes."""
    s = str(t).replace("const ", "")
    return "Tensor" in s and "TensorOptions" not in s and "TensorGeometry" not in s


def _position(order: Dict[str, int], name: str) -> int:
    return order.get(name, len(order))


def _args_with_derivatives(f, info) -> List[str]:
    """gen_variable_type's args_with_derivatives: non-out arguments named by a derivative formula."""
    names = {n for d in info.derivatives for n in d.var_names}
    return [a.name for a in f.func.arguments.flat_non_out if a.name in names]


def _guard_vars(f, info, arg, diff: List[str]) -> List[str]:
    """When torchgen's autograd kernel saves input ``arg``: the differentiable inputs of which one
    must require grad. Mirrors ``guard_for`` in torchgen/packaged/autograd/gen_variable_type.py:
    a guard (``should_compute_output``) only in the simple cases, otherwise saved whenever the node
    is created (any differentiable input requires grad)."""
    import re

    from torchgen.api.types import BaseCType, tensorT
    from torchgen.model import ListType

    unguarded = list(diff)
    argtypes = {a.name: a.type for a in f.func.arguments.flat_non_out}
    if any(isinstance(argtypes[n], ListType) and argtypes[n].is_tensor_like() for n in diff):
        return unguarded
    if "backward" in info.name or len(diff) <= 1:
        return unguarded
    if arg.nctype.type != BaseCType(tensorT):
        return unguarded
    used_in = [d for d in info.derivatives if arg in d.saved_inputs]
    if len(used_in) != 1:
        return unguarded
    d = used_in[0]
    if len(d.var_names) != 1:
        m = re.search(r"wrap_opt_if\(" + re.escape(str(arg.nctype.name)) + r",(.*?)\)", d.formula)
        if m is None:
            return unguarded
        cond = m.group(1)
        if "&&" in cond:
            return unguarded  # not an any-of condition; over-approximate
        idx = [int(i) for i in re.findall(r"grad_input_mask\[(\d+)\]", cond)]
        return [diff[i] for i in idx if i < len(diff)] or unguarded
    return [d.var_names[0]]


def aten_table() -> Dict[str, Dict[str, Any]]:
    """Every ATen overload torchgen gives a derivative (directly or via its functional variant)."""
    from torchgen.api.autograd import match_differentiability_info
    from torchgen.model import SchemaKind
    from torchgen.packaged.autograd.load_derivatives import load_derivatives

    deriv, native, tags = _packaged_paths()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        infos, _ = load_derivatives(deriv, native, tags)
    from torchgen.gen import parse_native_yaml

    funcs = parse_native_yaml(native, tags).native_functions
    matched = match_differentiability_info(funcs, infos)
    table: Dict[str, Dict[str, Any]] = {}
    for fn_info in matched:
        f = fn_info.func
        info_dict = fn_info.info
        if not info_dict:
            continue
        info = info_dict.get("Default") or next(iter(info_dict.values()))
        if not info.has_derivatives:
            continue
        kind = f.func.kind()
        inplace = kind == SchemaKind.inplace
        is_out = kind == SchemaKind.out
        args = f.func.arguments
        tensor_args = {a.name for a in args.flat_all if a.type.is_tensor_like()}
        nret = len(f.func.returns)
        out_names = [
            r.name or ("result" if nret == 1 else f"result{i}") for i, r in enumerate(f.func.returns)
        ]
        diff = _args_with_derivatives(f, info)
        saved: Dict[str, List[str]] = {}
        for d in info.derivatives:
            for s in d.saved_inputs:
                name = str(s.nctype.name)
                if name not in tensor_args or not _is_tensor_type(s.nctype.type):
                    continue  # metadata such as self_sym_sizes / other_scalar_type
                if inplace and name == "self":
                    name = "original_self"  # the in-place codegen saves a private clone of self
                when = _guard_vars(f, info, s, diff)
                prev = saved.setdefault(name, [])
                prev.extend(v for v in when if v not in prev)
        # outputs are saved without a guard: whenever the node is created
        saved_out = sorted(
            str(s.nctype.name) for s in info.all_saved_outputs if _is_tensor_type(s.nctype.type)
        )
        order = {a.name: i for i, a in enumerate(args.flat_all)}
        key = functools.partial(_position, order)

        entry: Dict[str, Any] = {
            "saved": {k: sorted(v, key=key) for k, v in sorted(saved.items())},
            "saves_result": saved_out,
            "inplace": inplace,
            "view": bool(f.func.returns and any(
                r.annotation is not None and not r.annotation.is_write for r in f.func.returns
            )) and not inplace,
        }
        if is_out:
            entry["out"] = True
        entry["differentiable_inputs"] = diff
        if out_names != ["result"]:
            entry["outputs"] = out_names
        table[str(f.func.name)] = entry
    return dict(sorted(table.items()))


# ---------------------------------------------------------------------------------------- Python layer


_IGNORED_DISPATCH = {
    "detach", "alias", "lift_fresh", "empty.memory_format", "empty_like", "zeros_like", "ones_like",
    "_to_copy", "clone", "copy_", "zero_", "fill_.Scalar", "zeros", "ones", "empty_strided",
}


def _dispatch_trace(api) -> Tuple[List[Dict[str, Any]], Any, Dict[str, Any]]:
    """The ATen overloads the call reaches below autograd (composite ops show their pieces), each with
    the Python parameter bound to each tensor argument and the Python outputs it produced (found by
    object identity)."""
    from torch.utils._python_dispatch import TorchDispatchMode

    from tools.knowledge.probes import _invoke, _prepare, _victims
    from tools.knowledge.surface import is_tensor_spec

    calls: List[Dict[str, Any]] = []

    class Rec(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            kwargs = kwargs or {}
            out = func(*args, **kwargs)
            name = func._schema.name.split("::", 1)[1]
            ov = func._overloadname
            bound: Dict[str, Any] = {}
            for i, a in enumerate(func._schema.arguments):
                if i < len(args):
                    bound[a.name] = args[i]
                elif a.name in kwargs:
                    bound[a.name] = kwargs[a.name]
            calls.append({"op": name if ov == "default" else f"{name}.{ov}", "args": bound, "out": out})
            return out

    values, leaves, module = _prepare(api, frozenset(api.grad_params()), 0, inplace=False)
    with Rec():
        out = _invoke(api, values, module, False, 0)
    argvals = {n: _victims(values, n) for n, s in api.all_args() if is_tensor_spec(s)}
    if module is not None:
        argvals["@params"] = list(module.parameters())
    return calls, out, argvals


def python_entry(api, result, aten: Dict[str, Any]) -> Tuple[Dict[str, Any], Optional[Dict[str, Any]]]:
    entry: Dict[str, Any] = {
        "kind": api.kind,
        "params": list(api.params),
        "tensor_params": api.tensor_params(),
        "saves": result.saves,
        "differentiable": result.differentiable,
        "probed": True,
    }
    if api.kwonly:
        entry["kwonly"] = list(api.kwonly)
    if result.view_of:
        entry["view_of"] = result.view_of
    if result.may_alias:
        entry["may_alias"] = result.may_alias
    if api.kind == "module":
        entry["ctor_params"] = list(api.ctor_params)
        if result.param_saves:
            entry["param_saves"] = result.param_saves
    if result.inplace_saves is not None and result.modifies_bumps:
        entry["inplace"] = {
            "modifies": api.modifies,
            "kwarg": None if api.always_inplace else api.inplace_kwarg,
            "saves": result.inplace_saves,
        }
    if result.writes_given:
        entry["writes_given"] = {"kwarg": api.writes_given[0], "target": api.writes_given[2]}
    if result.no_backward:
        entry["no_backward"] = True
    if result.multi_view:
        entry["multi_view"] = True
    if result.returns != 1:
        entry["returns"] = result.returns
    if result.differentiable and api.kind != "module" and set(result.grad_inputs) != set(api.tensor_params()):
        entry["grad_inputs"] = result.grad_inputs  # the others (an index, a mask) carry no grad
    try:
        calls, out, argvals = _dispatch_trace(api)
    except Exception:
        return entry, None
    relevant = [c for c in calls if c["op"] not in _IGNORED_DISPATCH and c["op"] in aten]
    if not relevant:
        relevant = [c for c in calls if c["op"] in aten]
    ops = sorted({c["op"] for c in relevant})
    if len(relevant) == 1:
        entry["aten"] = relevant[0]["op"]
        return entry, {"call": relevant[0], "out": out, "argvals": argvals, "grad": api.grad_params()}
    if ops:
        entry["aten_ops"] = ops
    return entry, None


def _cross_check(
    name: str, entry: Dict[str, Any], trace: Optional[Dict[str, Any]], aten: Dict[str, Any]
) -> List[str]:
    """Compare a probed single-op entry with torchgen's facts. Parameters are matched by object
    identity (which Python argument reached which ATen argument), outputs likewise."""
    import torch

    from tools.knowledge.probes import _flat_tensors

    if trace is None:
        return []
    call = trace["call"]
    a = aten[call["op"]]
    py_of: Dict[str, str] = {}
    for aname, val in call["args"].items():
        vals = val if isinstance(val, (list, tuple)) else [val]
        for pname, pvals in trace["argvals"].items():
            if any(isinstance(v, torch.Tensor) and any(v is p for p in pvals) for v in vals):
                py_of[aname] = pname
    py_outs = _flat_tensors(trace["out"])
    aten_outs = _flat_tensors(call["out"])
    visible = [i for i, o in enumerate(aten_outs) if any(o is p for p in py_outs)]
    outputs = a.get("outputs", ["result"])
    inplace_form = entry.get("inplace") and entry["inplace"]["kwarg"] is None
    measured = entry["inplace"]["saves"] if inplace_form else entry["saves"]
    probed = {s["target"]: sorted(s["when"]) for s in measured}
    expected: Dict[str, List[str]] = {}
    for target, when in a["saved"].items():
        if target == "original_self":
            continue  # a private clone: never user-visible
        if target not in py_of or py_of[target] == "@params":
            continue  # an intermediate the user does not hold, or the module's own parameter
        expected[py_of[target]] = sorted({py_of[w] for w in when if w in py_of and py_of[w] in trace["grad"]})
    diff_py = sorted(
        {py_of[w] for w in a["differentiable_inputs"] if w in py_of and py_of[w] in trace["grad"]}
    )
    for out_name in a["saves_result"]:
        i = outputs.index(out_name) if out_name in outputs else 0
        if a["inplace"] or i in visible:
            expected["result"] = diff_py
    expected = {k: sorted(v) for k, v in expected.items() if v}
    problems = []
    for t in sorted(set(expected) | set(probed)):
        if expected.get(t) != probed.get(t):
            problems.append(
                f"{name} ({call['op']}): {t!r} torchgen when={expected.get(t)} probe when={probed.get(t)}"
            )
    return problems


def inplace_methods(probed_bumps: Dict[str, bool]) -> Tuple[List[str], List[str]]:
    """Tensor methods that modify self: named ``*_``, in place per the ATen schema, and bumping the
    version counter when probed. Returns (methods, notes)."""
    import torch

    from tools.knowledge.probes import check_inplace_method

    names = sorted(
        n for n in dir(torch.Tensor) if n.endswith("_") and not n.endswith("__") and not n.startswith("_")
    )
    out, notes = [], []
    for n in names:
        verdict, why = check_inplace_method(n, probed_bumps)
        if verdict:
            out.append(n)
        if why:
            notes.append(f"{n}: {why}")
    return out, notes


AUGMENTED = {
    "+=": ("__iadd__", "add_"), "-=": ("__isub__", "sub_"), "*=": ("__imul__", "mul_"),
    "/=": ("__itruediv__", "div_"), "**=": ("__ipow__", "pow_"), "//=": ("__ifloordiv__", "floor_divide_"),
    "%=": ("__imod__", "remainder_"), "&=": ("__iand__", "bitwise_and_"), "|=": ("__ior__", "bitwise_or_"),
    "^=": ("__ixor__", "bitwise_xor_"), "<<=": ("__ilshift__", "bitwise_left_shift_"),
    ">>=": ("__irshift__", "bitwise_right_shift_"), "@=": ("__imatmul__", None),
}


def augmented_operators() -> Tuple[Dict[str, str], List[str]]:
    """Probe each augmented operator: does it modify the tensor in place, and which in-place method
    implements it (same result and same autograd node)."""
    import torch

    res: Dict[str, str] = {}
    notes: List[str] = []

    def floats():
        return torch.rand(2, 2, dtype=torch.float64) + 0.5

    for sym, (_dunder, method) in AUGMENTED.items():
        integer = sym in ("&=", "|=", "^=", "<<=", ">>=")
        mk = (lambda: torch.tensor([[5, 6], [7, 12]])) if integer else floats
        other = (lambda: torch.tensor([[1, 2], [1, 3]])) if integer else floats
        a = mk()
        b = other()
        ident = id(a)
        v0 = a._version
        ns = {"a": a, "b": b}
        exec(f"a {sym} b", ns)
        inplace = ns["a"] is a and id(ns["a"]) == ident and a._version != v0
        if not inplace:
            notes.append(f"{sym}: not in place on torch.Tensor (Python rebinds the name to a new tensor)")
            continue
        if method is None or not hasattr(torch.Tensor, method):
            notes.append(f"{sym}: in place but no matching method")
            continue
        # same values and same autograd node type as the named in-place method
        x1, x2 = mk(), mk()
        x2.copy_(x1)
        y = other()
        ns = {"a": x1, "b": y}
        exec(f"a {sym} b", ns)
        getattr(x2, method)(y)
        same = torch.equal(x1, x2)
        if not integer:
            l1 = (torch.rand(2, 2, dtype=torch.float64) + 0.5).requires_grad_()
            p1, p2 = l1.clone(), l1.clone()
            ns = {"a": p1, "b": y}
            exec(f"a {sym} b", ns)
            getattr(p2, method)(y)
            same = same and p1.grad_fn.name() == p2.grad_fn.name()
        if not same:
            notes.append(f"{sym}: does not match {method}")
            continue
        res[sym] = "torch.Tensor." + method
    return res, notes


_FACT_KEYS = ("saves", "view_of", "may_alias", "differentiable", "inplace", "param_saves", "no_backward",
              "multi_view", "writes_given")


def _facts(entry: Dict[str, Any]) -> Dict[str, Any]:
    return {k: entry.get(k) for k in _FACT_KEYS}


def _without(saves: List[Dict[str, Any]], param: str) -> List[Dict[str, Any]]:
    res = []
    for s in saves:
        if s["target"] == param:
            continue
        when = [w for w in s["when"] if w != param]
        if when:
            res.append({"target": s["target"], "when": when})
    return res


def differs_with_number(general: Dict[str, Any], number: Dict[str, Any], param: str) -> bool:
    """Does passing a number for ``param`` change the facts beyond dropping that parameter?"""
    if _without(general["saves"], param) != number["saves"]:
        return True
    gi, ni = general.get("inplace"), number.get("inplace")
    if (gi is None) != (ni is None):
        return True
    if gi and _without(gi["saves"], param) != ni["saves"]:
        return True
    return any(general.get(k, []) != number.get(k, []) for k in ("view_of", "may_alias"))


def generate(verbose: bool = False) -> Tuple[Dict[str, Any], Dict[str, List[str]]]:
    """The full ops.json content and a report {disagreements, notes, failures}."""
    import torch

    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _generate(verbose)
    finally:
        torch.set_num_threads(threads)


def _generate(verbose: bool) -> Tuple[Dict[str, Any], Dict[str, List[str]]]:
    import torch

    from tools.knowledge import probes
    from tools.knowledge import surface

    aten = aten_table()
    python: Dict[str, Dict[str, Any]] = {}
    report: Dict[str, List[str]] = {"disagreements": [], "notes": [], "failures": []}
    bumps: Dict[str, bool] = {}
    for api in surface.SURFACE:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                r = probes.probe(api)
                entry, trace = python_entry(api, r, aten)
        except Exception as e:  # a broken spec: report, never guess
            first = str(e).splitlines()[0] if str(e) else ""
            report["failures"].append(f"{api.name}: {type(e).__name__}: {first}")
            continue
        report["notes"].extend(r.notes)
        report["disagreements"].extend(_cross_check(api.name, entry, trace, aten))
        python[api.name] = entry
        if api.kind == "method" and api.always_inplace:
            bumps[api.name[len("torch.Tensor."):]] = bool(r.modifies_bumps)
        if verbose:
            print(api.name, json.dumps(entry, sort_keys=True), file=sys.stderr)
        for var in surface.number_variants(api):
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    vr = probes.probe(var)
                    ventry, vtrace = python_entry(var, vr, aten)
            except Exception:
                continue  # torch does not accept a number there
            param = var.name.split("#", 1)[1].split("=", 1)[0]
            if differs_with_number(entry, ventry, param):
                report["notes"].extend(vr.notes)
                report["disagreements"].extend(_cross_check(var.name, ventry, vtrace, aten))
                python[var.name] = ventry
    # an overload key is only worth shipping when its facts differ from the base entry's
    for name in [n for n in python if "#" in n]:
        base = python.get(name.split("#", 1)[0])
        if base is not None and _facts(base) == _facts(python[name]):
            del python[name]
            report["notes"].append(f"{name}: same facts as the base entry; not shipped")
    methods, mnotes = inplace_methods(bumps)
    report["notes"].extend(mnotes)
    aug, anotes = augmented_operators()
    report["notes"].extend(anotes)
    for k in report:
        report[k] = sorted(set(report[k]))
    data = {
        "torch_version": torch.__version__.split("+")[0],
        "aten": aten,
        "python": dict(sorted(python.items())),
        "inplace_methods": methods,
        "augmented_operators": dict(sorted(aug.items())),
    }
    return data, report


def dumps(data: Dict[str, Any]) -> str:
    """Deterministic JSON: sorted keys, one table entry per line (small, readable diffs)."""

    def one(v) -> str:
        return json.dumps(v, sort_keys=True, separators=(",", ":"), ensure_ascii=True)

    parts = []
    for key in sorted(data):
        value = data[key]
        if isinstance(value, dict) and value and all(isinstance(v, dict) for v in value.values()):
            body = ",\n".join(f"{one(k)}:{one(value[k])}" for k in sorted(value))
            parts.append(f"{one(key)}:{{\n{body}\n}}")
        else:
            parts.append(f"{one(key)}:{one(value)}")
    return "{\n" + ",\n".join(parts) + "\n}\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--output", default=OPS_JSON)
    ap.add_argument("--report", help="write the disagreement/notes report (JSON) here")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args(argv)
    data, report = generate(verbose=args.verbose)
    with open(args.output, "w", encoding="utf-8") as fh:
        fh.write(dumps(data))
    if args.report:
        with open(args.report, "w", encoding="utf-8") as fh:
            json.dump(report, fh, indent=1, sort_keys=True)
    print(
        f"wrote {args.output}: {len(data['aten'])} aten overloads, {len(data['python'])} python entries, "
        f"{len(data['inplace_methods'])} in-place methods; {len(report['failures'])} probe failures, "
        f"{len(report['disagreements'])} torchgen/probe disagreements",
        file=sys.stderr,
    )
    for f in report["failures"]:
        print("FAILED", f, file=sys.stderr)
    return 1 if report["failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
