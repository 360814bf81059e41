"""Regenerate ``ops.json`` from the installed torch: ``python -m inplace_lint.knowledge.generate``.

Two layers (see docs/knowledge.md):

* ``aten``: every differentiable ATen overload, read from torchgen's derivatives.yaml /
  native_functions.yaml (what each overload saves, under which condition, view/in-place/out).
* ``python``: the Python surface (:mod:`surface`), every entry measured by :mod:`probes`.

Only this module, ``probes`` and ``surface`` import torch; the linter reads the JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import warnings
from typing import Any, Dict, List, Optional, Tuple

OPS_JSON = os.path.join(os.path.dirname(os.path.abspath(__file__)), "ops.json")
DISAGREEMENTS_JSON = None  # disagreements are returned / printed, not shipped


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


def _overload_name(f) -> str:
    n = str(f.func.name)
    return n


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
        out_names = [r.name or ("result" if len(f.func.returns) == 1 else f"result{i}") for i, r in enumerate(f.func.returns)]
        # conditions: a saved input is saved iff some differentiable input whose formula uses it needs grad
        saved: Dict[str, List[str]] = {}
        saved_out: Dict[str, List[str]] = {}
        for d in info.derivatives:
            for s in d.saved_inputs:
                name = str(s.nctype.name)
                if name not in tensor_args or not _is_tensor_type(s.nctype.type):
                    continue
                if inplace and name == "self":
                    name = "original_self"  # the in-place codegen saves a private clone of self
                saved.setdefault(name, [])
                for v in d.var_names:
                    if v not in saved[name]:
                        saved[name].append(v)
            for s in d.saved_outputs:
                name = str(s.nctype.name)
                if not _is_tensor_type(s.nctype.type):
                    continue
                saved_out.setdefault(name, [])
                for v in d.var_names:
                    if v not in saved_out[name]:
                        saved_out[name].append(v)
        order = [a.name for a in args.flat_all]

        def key(v):
            return order.index(v) if v in order else len(order)

        entry: Dict[str, Any] = {
            "saved": {k: sorted(v, key=key) for k, v in sorted(saved.items())},
            "saves_result": sorted(saved_out),
            "inplace": inplace,
            "view": bool(f.func.returns and any(
                r.annotation is not None and not r.annotation.is_write for r in f.func.returns
            )) and not inplace,
        }
        if saved_out:
            entry["saves_result_when"] = {k: sorted(v, key=key) for k, v in sorted(saved_out.items())}
        if is_out:
            entry["out"] = True
        diff = [b.name for b in info.args_with_derivatives]
        entry["differentiable_inputs"] = diff
        if out_names and out_names != ["result"]:
            entry["outputs"] = out_names
        table[_overload_name(f)] = entry
    return dict(sorted(table.items()))


# ---------------------------------------------------------------------------------------- Python layer


def _aten_of(api, values_fn) -> Optional[str]:
    return None


def _dispatched_ops(api) -> List[str]:
    """ATen overloads the call dispatches to below autograd (composite ops show their pieces)."""
    import torch
    from torch.utils._python_dispatch import TorchDispatchMode

    from inplace_lint.knowledge.probes import _invoke, _prepare

    seen: List[str] = []

    class Rec(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            name = func._schema.name.split("::", 1)[1]
            ov = func._overloadname
            full = name if ov == "default" else f"{name}.{ov}"
            seen.append(full)
            return func(*args, **(kwargs or {}))

    values, leaves, module = _prepare(api, frozenset(api.grad_params()), 0, inplace=False)
    try:
        with Rec():
            _invoke(api, values, module, False, 0)
    except Exception:
        return []
    return seen


_IGNORED_DISPATCH = {"detach", "alias", "lift_fresh", "empty.memory_format", "empty_like", "zeros_like", "ones_like"}


def python_entry(api, result, aten: Dict[str, Any]) -> Dict[str, Any]:
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
    if result.inplace_saves is not None and (api.always_inplace or result.modifies_bumps):
        entry["inplace"] = {
            "modifies": api.modifies,
            "kwarg": None if api.always_inplace else api.inplace_kwarg,
            "saves": result.inplace_saves,
        }
    ops = [o for o in _dispatched_ops(api) if o not in _IGNORED_DISPATCH]
    if len(ops) == 1 and ops[0] in aten:
        entry["aten"] = ops[0]
    elif ops:
        entry["aten_ops"] = sorted(set(o for o in ops if o in aten))
        if not entry["aten_ops"]:
            del entry["aten_ops"]
    return entry


def _cross_check(name: str, entry: Dict[str, Any], aten: Dict[str, Any]) -> Optional[str]:
    """Compare a probed single-op entry with torchgen's facts (by position of tensor params)."""
    op = entry.get("aten")
    if not op:
        return None
    a = aten[op]
    probed_targets = sorted({s["target"] for s in (entry["inplace"]["saves"] if entry.get("inplace") and entry["inplace"]["kwarg"] is None else entry["saves"])})
    # map aten names to python names by position among tensor params
    aten_targets = set()
    for k in a["saved"]:
        aten_targets.add(k)
    if a["saves_result"]:
        aten_targets.add("result")
    py_tp = entry["tensor_params"]
    import torch

    try:
        schema = [s for s in torch._C._jit_get_schemas_for_operator("aten::" + op.split(".")[0])
                  if (s.overload_name or "") == (op.split(".", 1)[1] if "." in op else "")][0]
        aten_tp = [x.name for x in schema.arguments if "Tensor" in str(x.type)]
    except Exception:
        return None
    rename = {}
    for i, n in enumerate(aten_tp):
        if i < len(py_tp):
            rename[n] = py_tp[i]
    mapped = sorted({rename.get(t, t) for t in aten_targets if t != "original_self"})
    if mapped != probed_targets:
        return f"{name} ({op}): torchgen saves {mapped}, probe observed {probed_targets}"
    return None


def inplace_methods(surface_entries: Dict[str, Dict[str, Any]]) -> Tuple[List[str], List[str]]:
    """Tensor methods that modify self: named ``*_``, in place per the ATen schema, and bumping the
    version counter when probed. Returns (methods, notes)."""
    import torch

    from inplace_lint.knowledge.probes import check_inplace_method

    names = sorted(n for n in dir(torch.Tensor) if n.endswith("_") and not n.endswith("__") and not n.startswith("_"))
    out, notes = [], []
    for n in names:
        verdict, why = check_inplace_method(n, surface_entries)
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
    for sym, (dunder, method) in AUGMENTED.items():
        integer = sym in ("&=", "|=", "^=", "<<=", ">>=")
        mk = (lambda: torch.tensor([[5, 6], [7, 12]])) if integer else (lambda: torch.rand(2, 2, dtype=torch.float64) + 0.5)
        other = (lambda: torch.tensor([[1, 2], [1, 3]])) if integer else (lambda: torch.rand(2, 2, dtype=torch.float64) + 0.5)
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
            same = same and type(p1.grad_fn).__name__ == type(p2.grad_fn).__name__
        if not same:
            notes.append(f"{sym}: does not match {method}")
            continue
        res[sym] = "torch.Tensor." + method
    return res, notes


def generate(verbose: bool = False) -> Tuple[Dict[str, Any], Dict[str, List[str]]]:
    """The full ops.json content and a report {disagreements, notes, failures}."""
    import torch

    from inplace_lint.knowledge import probes, surface

    aten = aten_table()
    python: Dict[str, Dict[str, Any]] = {}
    report: Dict[str, List[str]] = {"disagreements": [], "notes": [], "failures": []}
    for api in surface.SURFACE:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                r = probes.probe(api)
                entry = python_entry(api, r, aten)
        except Exception as e:  # a broken spec: report, never guess
            report["failures"].append(f"{api.name}: {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}")
            continue
        report["notes"].extend(r.notes)
        d = _cross_check(api.name, entry, aten)
        if d:
            report["disagreements"].append(d)
        python[api.name] = entry
        if verbose:
            print(api.name, json.dumps(entry, sort_keys=True), file=sys.stderr)
    methods, mnotes = inplace_methods(python)
    report["notes"].extend(mnotes)
    aug, anotes = augmented_operators()
    report["notes"].extend(anotes)
    data = {
        "torch_version": torch.__version__.split("+")[0],
        "aten": aten,
        "python": dict(sorted(python.items())),
        "inplace_methods": methods,
        "augmented_operators": dict(sorted(aug.items())),
    }
    return data, report


def dumps(data: Dict[str, Any]) -> str:
    return json.dumps(data, indent=None, sort_keys=True, separators=(",", ":")).replace('},"', '},\n"') + "\n"


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
