"""What each expression does to the abstract state: calls, operators, attributes, subscripts.

The op facts come from the knowledge table (generated from torch); this module only maps the
syntax users write onto it: argument binding, in-place spellings, views, modules and optimizers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Dict, FrozenSet, List, Optional, Tuple

import libcst as cst

from inplace_lint.analysis.parameters import SELF_ATTRIBUTE, bind_arguments, parameter_list, parameter_writes
from inplace_lint.syntax.names import dotted, walk
from inplace_lint.syntax.triggers import (
    BACKWARD_FUNCTION, BACKWARD_METHOD, INPLACE_KEYWORD, LAYER_PARAMETERS, LOAD_STATE_DICT, OPTIMIZER_STEP,
    OUT_KEYWORD, PARAMETER_WALKS, REGISTER_FORWARD_HOOK,
)
from inplace_lint.analysis.naming import looks_like_count, looks_like_integer_tensor, looks_like_module
from inplace_lint.analysis.values import (
    ALWAYS_SAVED,
    DYNAMIC,
    CONTAINER,
    MAYBE,
    MODULE,
    NO,
    OPTIMIZER,
    OTHER,
    OTHER_VAL,
    OUTPUT,
    OUTPUTS,
    PARAMS,
    TENSOR,
    UNKNOWN,
    VIEW,
    YES,
    ASSUMED,
    HOOKED_INPUT,
    MODULE_OUTPUT,
    MODULE_PARAMETERS,
    PARAMETER,
    REQUIRES_GRAD,
    GradOrigin,
    ModuleInfo,
    MultiView,
    NogradViewReturn,
    SaveSite,
    State,
    Val,
    WriteSite,
    origin_of,
    replace,
)
from inplace_lint.knowledge import (
    COPY_WHEN_STRIDED, ENABLE_GRAD, FACTORIES, MODULE_PARAMS, NOGRAD_CONTEXTS, NON_DIFFERENTIABLE_METHODS,
    NON_TENSOR_ATTRIBUTES, NON_TENSOR_METHODS, PARAMETER_CTORS, SAVED_TENSOR_HOOKS, SET_GRAD, STRIDED_VIEWS,
    VIEW_ATTRIBUTES, OpInfo, Save,
)

if TYPE_CHECKING:
    from inplace_lint.analysis.dataflow import Interpreter

BINARY_SYMBOLS = {
    cst.Multiply: "mul",
    cst.Divide: "truediv",
    cst.Add: "add",
    cst.Subtract: "sub",
    cst.Power: "pow",
    cst.MatrixMultiply: "matmul",
    cst.FloorDivide: "floordiv",
    cst.Modulo: "mod",
    cst.BitAnd: "and_",
    cst.BitOr: "or_",
    cst.BitXor: "xor",
    cst.LeftShift: "lshift",
    cst.RightShift: "rshift",
}
BINARY_FROM_AUG = {
    "*=": "mul",
    "/=": "truediv",
    "+=": "add",
    "-=": "sub",
    "**=": "pow",
    "@=": "matmul",
    "//=": "floordiv",
    "%=": "mod",
}

# Methods only numpy arrays (or other non-tensors) have: the receiver, and the result, are not tensors.
NUMPY_ONLY_METHODS = {"astype", "tobytes", "tostring", "ravel", "squeeze_dims", "itemset", "getfield", "setfield",
                      "dumps", "keys", "items", "values", "decode", "encode", "split_lines", "lower", "upper",
                      "strip", "startswith", "endswith", "format", "join", "replace"}
CONTAINER_MUTATORS = {"append", "extend", "insert", "add", "update", "setdefault", "appendleft", "put", "push"}
BUILTINS_OTHER = {
    "len", "range", "print", "int", "float", "str", "bool", "isinstance", "issubclass", "hasattr",
    "getattr", "setattr", "callable", "repr", "format", "id", "hash", "type", "open", "round", "divmod",
    "ord", "chr", "hex", "bin", "oct", "input", "super", "object", "vars", "dir", "locals", "globals",
    "sorted_keys", "Exception", "ValueError", "TypeError", "RuntimeError", "AssertionError", "KeyError",
    "NotImplementedError", "math", "complex", "bytes", "frozenset", "set", "slice", "property",
    "staticmethod", "classmethod", "iter", "exit", "quit", "all", "any", "enumerate", "zip", "map", "filter",
}
# Libraries whose calls never return a torch tensor.
NON_TORCH_ROOTS = {
    "numpy", "math", "cmath", "random", "jax", "tensorflow", "scipy", "pandas", "cupy", "os", "sys", "time",
    "json", "re", "pathlib", "collections", "itertools", "functools", "typing", "logging", "pickle", "string",
    "io", "csv", "argparse", "dataclasses", "matplotlib", "PIL", "cv2", "yaml", "requests", "tqdm", "shutil",
    "glob", "subprocess", "inspect", "warnings", "operator", "statistics", "datetime", "hashlib", "struct",
    "textwrap", "enum", "abc", "contextlib", "threading", "multiprocessing", "socket", "tempfile", "uuid",
    "sklearn", "h5py", "zipfile", "tarfile", "urllib", "platform", "traceback", "weakref", "heapq", "bisect",
}
OPTIMIZER_NAMES = ("opt", "optim", "optimizer")


# ============================================================================== argument binding
@dataclass
class Bound:
    vals: Dict[str, Val]
    nodes: Dict[str, cst.CSTNode]
    args: Dict[str, cst.Arg]
    extra: List[Val]  # arguments we could not bind to a parameter
    passed: FrozenSet[str]
    evaluated: List = None  # (Arg, Val) in call order, for rebinding to another overload
    elements: Optional[Dict[str, List[Tuple[Val, cst.CSTNode]]]] = None  # a variadic parameter's values


def bind(interp: "Interpreter", state: State, call: cst.Call, params, kwonly=(), receiver: Optional[Val] = None,
         receiver_node=None) -> Bound:
    start = len(interp.renamed)
    evaluated = []
    for arg in call.args:
        val = interp.eval(state, arg.value)
        # saves made while evaluating the later arguments rename what this one names
        evaluated.append((arg, val, len(interp.renamed)))
    evaluated = [(arg, interp.catch_up(val, mark)) for arg, val, mark in evaluated]
    if receiver is not None:
        receiver = interp.catch_up(receiver, start)
    return bind_values(evaluated, params, receiver, receiver_node)


def bind_values(evaluated, params, receiver: Optional[Val] = None, receiver_node=None) -> Bound:
    """Match already-evaluated call arguments to an op's parameters."""
    vals: Dict[str, Val] = {}
    nodes: Dict[str, cst.CSTNode] = {}
    args: Dict[str, cst.Arg] = {}
    extra: List[Val] = []
    positional = list(params)
    if receiver is not None and positional and positional[0] == "self":
        vals["self"] = receiver
        if receiver_node is not None:
            nodes["self"] = receiver_node
        positional = positional[1:]
    index = 0
    for arg, val in evaluated:
        if arg.star:
            extra.append(val.element() if arg.star == "*" else val)
            index = len(positional)  # the rest is unknown
            continue
        if arg.keyword is not None:
            name = arg.keyword.value
            vals[name] = val
            nodes[name] = arg.value
            args[name] = arg
            continue
        if index < len(positional):
            name = positional[index]
            vals[name] = val
            nodes[name] = arg.value
            args[name] = arg
            index += 1
        else:
            extra.append(val)
    return Bound(vals, nodes, args, extra, frozenset(vals), evaluated)


def choose_overload(interp: "Interpreter", qualname: str, info: OpInfo, bound: Bound, receiver=None,
                    receiver_node=None) -> Tuple[OpInfo, Bound]:
    """Pick the ``name#param`` overload the call means, rebinding its arguments to that overload.

    ``torch.min(x, w)`` binds ``w`` to ``dim`` under the reduction's parameter list; the overload whose
    parameter receives a tensor where a tensor is expected (``#other``) is the one torch runs.
    """
    k = interp.k
    candidates = [(info, bound)]
    for key in k.variants(qualname):
        variant = k.lookup(key)
        if variant is None:
            continue
        rebound = bind_values(bound.evaluated or [], variant.params, receiver, receiver_node)
        selector = key.split("#", 1)[1]
        param, _, form = selector.partition("=")
        if param not in rebound.passed:
            continue
        if form:
            # "#exponent=number": the overload torch runs when that argument is a Python number
            val = rebound.vals[param]
            if (form == "number" and val.kind != OTHER) or (form == "tensor" and not val.tensorish):
                continue
            return variant, rebound
        candidates.append((variant, rebound))
    if len(candidates) == 1:
        return info, bound

    def fits(candidate) -> Tuple[int, int, int]:
        op, b = candidate
        mismatched = unlikely = 0
        for param, val in b.vals.items():
            expects_tensor = param in op.tensor_params
            if val.kind == TENSOR and not expects_tensor and param != "self":
                mismatched += 1
            elif val.kind == OTHER and expects_tensor:
                mismatched += 1
            elif val.kind == UNKNOWN and not expects_tensor and param != "self" and \
                    (val.hist or val.grad == YES):
                # a value autograd records (torch.min(surr1, clip(ratio) * adv)) is no dim or flag
                unlikely += 1
        return (mismatched, unlikely, 0 if "#" in op.name else 1)

    return min(candidates, key=fits)


def _note_triggers(interp: "Interpreter", sid: int, vals, module_params: bool = False) -> None:
    """The tensors whose requiring grad made the save at ``sid`` (a helper's summary of the parameters it
    saves says which of its parameters must require grad: ``x * s`` saves ``x`` only for a tensor ``s``).
    One that surely requires grad, or a module's parameters (``module_params``), makes it always."""
    vals = [v for v in vals if v.tensorish or v.kind == CONTAINER]
    groups = frozenset(g for v in vals for g in v.groups)
    if module_params or any(v.grad == YES for v in vals):
        groups |= ALWAYS_SAVED
    triggers = interp.ctx.save_triggers
    triggers[sid] = triggers.get(sid, frozenset()) | groups


def is_true(node) -> bool:
    return type(node) is cst.Name and node.value == "True"


def is_false_or_none(node) -> bool:
    return type(node) is cst.Name and node.value in ("False", "None")


def is_number(node) -> bool:
    """A literal number (``1.0``, ``-2``): the only ``max_norm`` read as given (a name may hold None)."""
    if type(node) is cst.UnaryOperation and type(node.operator) in (cst.Minus, cst.Plus):
        node = node.expression
    return type(node) in (cst.Integer, cst.Float)


def renormalising_arg(ctor: cst.Call, info: OpInfo) -> Optional[cst.Arg]:
    """The argument that builds the module to write its own weight on every call (``max_norm=1.0`` of
    ``nn.Embedding``), or None."""
    given = keyword(ctor, info.writes_given[0]) if info.writes_given else None
    return given if given is not None and renormalises(given.value) else None


def renormalises(value) -> bool:
    """``max_norm=<literal>``: torch renormalises to ``float(max_norm)`` whenever it is not None, so a
    number or a bool (``max_norm=True`` is 1.0). A name is not read: it may hold None."""
    return is_number(value) or (type(value) is cst.Name and value.value in ("True", "False"))


def keyword(call: cst.Call, name: str) -> Optional[cst.Arg]:
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == name:
            return arg
    return None


SEQUENTIAL = "torch.nn.Sequential"


# ============================================================================== generic op
def guessed_grad(interp: "Interpreter") -> int:
    """Whether a value of unknown origin (an unknown call's result from inputs without grad, an attribute
    or global nothing here set) requires grad: no evidence says so, so only with the opt-in assumption."""
    return MAYBE if interp.ctx.assume_params_are_tensors else NO


def _grad_of(interp: "Interpreter", vals, module: Optional[ModuleInfo] = None) -> int:
    if interp.unit.nograd:
        return NO
    grad = NO
    if module is not None and module.has_params:
        grad = YES
    for val in vals:
        if val.kind in (TENSOR, UNKNOWN, CONTAINER, PARAMS):
            if val.grad == YES:
                grad = YES
            elif val.grad == MAYBE and grad == NO:
                grad = MAYBE
    return grad


def _kind_of(vals) -> str:
    return TENSOR if any(v.kind == TENSOR for v in vals) else UNKNOWN


def unknown_result(interp: "Interpreter", state: State, node, vals, module=None, owner=None) -> Val:
    """A call we know nothing about: it may compute from its inputs (history flows through). ``owner``:
    the module whose method was called (``policy.act(obs)``): with parameters, its result may use them."""
    hist = frozenset()
    for v in vals:
        hist |= v.hist
    grad = _grad_of(interp, vals, module)
    if grad == NO and not interp.unit.nograd:
        # a module with parameters, handed to the call (``block(x, fc)``) or whose method it is
        # (``policy.act(obs)``): the result may be computed with them
        handed = [v.module for v in vals if v.kind == MODULE and v.module is not None]
        if owner is not None:
            handed.append(owner)
        with_params = any(m.has_params and not m.frozen for m in handed)
        grad = MAYBE if with_params else guessed_grad(interp)
        origin = GradOrigin(node, MODULE_OUTPUT if with_params else ASSUMED) if grad != NO else None
    else:
        origin = _op_origin(interp, vals, module, node) if grad != NO else None
    return Val(kind=UNKNOWN, grad=grad, groups=frozenset({interp.new_group(state, node)}), hist=hist, opaque=True,
               origin=origin)


def _op_origin(interp: "Interpreter", vals, module: Optional[ModuleInfo], node) -> Optional[GradOrigin]:
    """Why an op's result requires grad: its module's parameters, else the first input that does."""
    if module is not None and module.has_params and not module.frozen:
        return _module_origin(interp, node)
    return origin_of(v for v in vals if v.kind in (TENSOR, UNKNOWN, CONTAINER, PARAMS))


def _module_origin(interp: "Interpreter", node) -> GradOrigin:
    """A module with parameters made the value: its output, when ``node`` is the call (``self.fc(x)``);
    its parameters, when ``node`` is the module (an element of an nn.Sequential, reported at its
    constructor)."""
    if type(node) is cst.Call and interp.ctx.sequence_call is None:
        return GradOrigin(node, MODULE_OUTPUT)
    return GradOrigin(node, MODULE_PARAMETERS)


# Schema parameters that never take a tensor (a dtype, a device, sizes, dims, flags): an unknown value
# passed there (``.to(dtype=dtype)``, ``x.chunk(n)``) carries no gradient into the result.
NON_TENSOR_PARAMS = frozenset({
    "dtype", "device", "layout", "memory_format", "non_blocking", "copy", "pin_memory", "requires_grad",
    "generator", "size", "shape", "chunks", "sections", "split_size", "split_size_or_sections",
    "indices_or_sections", "dim", "dims", "keepdim", "normalized_shape", "start_dim", "end_dim",
})


def apply_op(
    interp: "Interpreter",
    state: State,
    node,
    qualname: str,
    args: Dict[str, Val],
    arg_nodes: Dict[str, cst.CSTNode],
    info: Optional[OpInfo] = None,
    module: Optional[ModuleInfo] = None,
    extra: Optional[List[Val]] = None,
    elements: Optional[Dict[str, List[Tuple[Val, cst.CSTNode]]]] = None,
) -> Val:
    """An out-of-place op: create its saves, compute its result's groups, grad and history."""
    if info is None:
        info = interp.k.lookup(qualname)
    extra = extra or []
    every = list(args.values()) + extra
    if info is None:
        return unknown_result(interp, state, node, every, module)
    tensor_vals = [v for v in extra if v.kind in (TENSOR, UNKNOWN, CONTAINER, PARAMS)]
    for name, v in args.items():
        if v.kind not in (TENSOR, UNKNOWN, CONTAINER, PARAMS):
            continue
        if v.kind in (UNKNOWN, CONTAINER) and name in NON_TENSOR_PARAMS and name not in info.tensor_params:
            continue  # what may be anything, passed as a dtype, a device, a size: no gradient flows from it
        tensor_vals.append(v)
    # what carries grad into the result: every tensor input, or those torch measured to (not an index)
    grad_vals = tensor_vals if info.grad_inputs is None else [v for v in extra if v.kind in (
        TENSOR, UNKNOWN, CONTAINER, PARAMS)] + [v for name, v in args.items() if name in info.grad_inputs]
    grad = _grad_of(interp, grad_vals, module) if info.differentiable else NO
    # why its saves record a graph: its inputs' grad for what a module saves of its own parameters, its
    # parameters' (or another input's) for what it saves of its inputs
    input_origin = origin_of(v for v in grad_vals if v.kind in (TENSOR, UNKNOWN, CONTAINER, PARAMS))
    module_origin = GradOrigin(node, MODULE_PARAMETERS) if module is not None and module.has_params \
        and not module.frozen else None
    new_records = set()
    mark = len(interp.renamed)  # a save below may rename an older one the inputs' histories name
    op_text = node  # rendered only if a finding needs it
    result_saves: List[Save] = []
    for save in info.saves:
        if save.target == "result":
            result_saves.append(save)
            continue
        val = args.get(save.target)
        if val is None:
            if module is not None and module.has_params and save.target not in info.params:
                # a module's own parameter (weight, bias) saved for backward
                if interp.save_condition(save, args, module):
                    sid = interp.ctx.site(node, "save:" + save.target)
                    label = f"{module.label or 'module'}.{save.target}"
                    site = SaveSite(sid, op_text, qualname, label, "input", save.target, input_origin)
                    new_records.add(interp.create_record(state, sid, site, frozenset({module.param_group})))
            continue
        items = None
        if save.for_others and elements and save.target in elements:
            items = elements[save.target]
        elif save.for_others and val.kind == CONTAINER and val.parts is not None:
            display = arg_nodes.get(save.target)  # multi_dot([x, w])
            if type(display) in (cst.List, cst.Tuple) and len(display.elements) == len(val.parts):
                items = [(part, e.value) for part, e in zip(val.parts, display.elements)]
        if items is not None:
            # einsum(eq, x, w): x is saved only if w may require grad, and w only if x may
            for index, (item, item_node) in enumerate(items):
                others = [v for i, (v, _n) in enumerate(items) if i != index and v.tensorish]
                if not item.tensorish or not others:
                    continue
                joined = others[0]
                for other in others[1:]:
                    joined = joined.join(other)
                if interp.save_condition(save, {save.target: joined}, module):
                    sid = interp.ctx.site(item_node, "save:" + save.target)
                    site = SaveSite(sid, op_text, qualname, item_node, "input", save.target, origin_of(others))
                    new_records.add(interp.create_record(state, sid, site, item.groups))
                    _note_triggers(interp, sid, others)
            continue
        # a list or tuple saved whole: an LSTM's (h0, c0), multi_dot's matrices
        if not (val.tensorish or val.kind == CONTAINER) or not interp.save_condition(save, args, module):
            continue
        sid = interp.ctx.site(node, "save:" + save.target)
        text = arg_nodes[save.target] if save.target in arg_nodes else save.target
        others = [args[p] for p in (save.when or args) if p in args and p != save.target]
        site = SaveSite(sid, op_text, qualname, text, "input", save.target,
                        module_origin or origin_of(others) or input_origin)
        new_records.add(interp.create_record(state, sid, site, val.groups))
        _note_triggers(interp, sid, [args[p] for p in (save.when or args) if p in args],
                       module is not None and MODULE_PARAMS in save.when and module.has_params
                       and not module.frozen)
    if module is not None and module.has_params and not module.frozen:
        for save in info.param_saves:
            if interp.save_condition(save, args, module):
                sid = interp.ctx.site(node, "save:param:" + save.target)
                label = f"{module.label or 'the module'}.{save.target}"
                site = SaveSite(sid, op_text, qualname, label, "input", save.target, input_origin)
                new_records.add(interp.create_record(state, sid, site, frozenset({module.param_group})))
    # the result's version counter
    groups = frozenset()
    leaf = False
    for param in info.view_of:
        val = args.get(param)
        if val is not None and val.tensorish:
            groups |= val.groups
            leaf = leaf or val.leaf
    for param in info.may_alias:
        val = args.get(param)
        if val is not None and val.tensorish:
            groups |= val.groups
            leaf = leaf or (val.leaf and info.view_of == ())
    short = qualname.rsplit(".", 1)[-1]
    copies = short in COPY_WHEN_STRIDED and any(args.get(p) is not None and args[p].strided
                                                 for p in info.may_alias + info.view_of)
    if copies:
        groups = frozenset()  # .t().contiguous(), .permute(...).reshape(...): a non-contiguous view is copied
        leaf = False
    if not info.view_of or copies:
        groups |= {interp.new_group(state, node)}
    hist = frozenset(new_records)
    if grad != NO:
        for val in tensor_vals:
            hist |= interp.catch_up(val, mark).hist  # ``h = lin(h)`` in a loop: h holds the older save
    outputs = _tuple_outputs(interp, info)
    if outputs:
        # (values, indices) = torch.sort(x): each output is its own tensor; "result" saves are of the
        # outputs torchgen names (usually the integer indices, which carry no gradient)
        parts = {name: interp.new_group(state, node, "out:" + name) for name, _saved in outputs}
        saved_groups = frozenset(parts[name] for name, saved in outputs if saved)
    for save in result_saves:
        if not interp.save_condition(save, args, module):
            continue
        sid = interp.ctx.site(node, "save:result")
        site = SaveSite(sid, op_text, qualname, "", "result", "result", module_origin or input_origin)
        rid = interp.create_record(state, sid, site, saved_groups if outputs else groups)
        hist |= {rid}
        # what made it save (``if x.requires_grad: ... else:`` has the else branch drop a save x alone made)
        _note_triggers(interp, sid, grad_vals, module is not None and module.has_params and not module.frozen)
    origin = (_module_origin(interp, node) if module_origin is not None else input_origin) if grad != NO else None
    if outputs:
        kind = _kind_of(tensor_vals) if tensor_vals else UNKNOWN
        values = [Val(kind=kind, grad=NO if _is_index_output(name) else grad, groups=frozenset({parts[name]}),
                      hist=frozenset() if _is_index_output(name) else hist, origin=origin) for name, _ in outputs]
        return container_of(values)
    if info.kind == "module" and info.returns >= 2 and not info.view_of:
        # nn.MultiheadAttention, nn.LSTM: a tuple (``out, _ = self.attn(q, k, v)`` unpacks the tuple; it unbinds
        # no tensor), each element computed from the inputs and the module's parameters, and itself maybe a
        # tuple (an LSTM's ``(h, c)``): opaque
        kind = _kind_of(tensor_vals) if tensor_vals else UNKNOWN
        return container_of([Val(kind=kind, grad=grad, groups=frozenset({interp.new_group(state, node, f"out:{i}")}),
                                 hist=hist, opaque=True, origin=origin) for i in range(info.returns)])
    if not tensor_vals and not info.saves:
        return Val(kind=UNKNOWN, grad=NO, groups=groups)
    kind = _kind_of(tensor_vals) if tensor_vals else UNKNOWN
    strided = bool(info.view_of) and not copies and (short in STRIDED_VIEWS or any(
        args.get(p) is not None and args[p].strided for p in info.view_of))
    # torch refuses in-place writes to split/chunk/unbind outputs, and to views of them
    multiview = not copies and any(args.get(p) is not None and args[p].multiview for p in info.view_of)
    multiview_from = _view_of_multiview(args, info.view_of) if multiview else None
    nograd_view = short != "detach" and not copies and any(_nograd_view_of(interp, args.get(p)) for p in info.view_of)
    if info.multi_view:
        # name.split("/") is a str's split: only a value known to be a tensor, or one split by sizes
        # (x.split(2, -1): a str is split by a separator), is split into views
        multiview = short != "split" or qualname == "torch.split" or _split_sizes(arg_nodes) or any(
            args.get(p) is not None and args[p].kind == TENSOR for p in info.view_of)
        multiview_from = MultiView(qualname, node, _split_by_sizes(arg_nodes)) if multiview else None
    return Val(kind=kind, grad=grad, groups=groups, hist=hist, leaf=leaf and grad == YES, strided=strided,
               multiview=multiview, multiview_from=multiview_from,
               # a view made under no_grad keeps what its base requires grad by (AGI004 says it)
               origin=origin if origin is not None or not nograd_view else input_origin,
               nograd_view=nograd_view,
               nograd_fill_view=short != "detach" and not copies and any(
                   _nograd_fill_view_of(interp, args.get(p)) for p in info.view_of))


def _split_sizes(arg_nodes: Dict[str, cst.CSTNode]) -> bool:
    """Is this ``split`` one of a tensor whatever its receiver: split by an integer literal or a list of
    them (sizes, where a str takes a separator), or along a negative ``dim`` (``x.split(n, -1)``)?"""
    node = arg_nodes.get("split_size", arg_nodes.get("split_size_or_sections"))
    if type(node) in (cst.List, cst.Tuple):  # a str's split never takes a list: sizes, whatever they are
        return bool(node.elements) and not any(
            type(e.value) in (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString)
            for e in node.elements)
    dim = arg_nodes.get("dim")
    negative_dim = (type(dim) is cst.UnaryOperation and type(dim.operator) is cst.Minus
                    and type(dim.expression) is cst.Integer)
    return type(node) is cst.Integer or negative_dim


def _split_by_sizes(arg_nodes: Dict[str, cst.CSTNode]) -> Optional[bool]:
    """Is this ``split`` by a list of sizes (torch names its node SplitWithSizes) or by an int (Split)?
    None: not known from the code (``x.split(self.size)``)."""
    node = arg_nodes.get("split_size", arg_nodes.get("split_size_or_sections"))
    if type(node) in (cst.List, cst.Tuple):
        return True
    return False if type(node) is cst.Integer else None


def _view_of_multiview(args: Dict[str, Val], view_of: Tuple[str, ...]) -> Optional[MultiView]:
    """The op behind a view of a multi-view output: torch then names the view's own node."""
    for param in view_of:
        val = args.get(param)
        if val is not None and val.multiview:
            origin = val.multiview_from
            return origin._replace(stage=VIEW) if origin is not None else None
    return None


def _nograd_view_of(interp: "Interpreter", base: Optional[Val]) -> bool:
    """Is a view of ``base`` made here one torch refuses to write in place with grad on? A view of such a
    view, or a view made under no_grad of a tensor that requires grad."""
    if base is None or not base.tensorish:
        return False
    return base.nograd_view or (interp.unit.nograd and base.grad == YES)


def _nograd_fill_view_of(interp: "Interpreter", base: Optional[Val], several_dims: bool = False) -> bool:
    """Is a view of ``base`` made here one torch refuses to write, with grad on, a value that requires grad
    into? A view of such a view, or a view made under no_grad of a tensor that requires no grad (one that
    may: then any write is refused, and a write of a value that requires grad is either way). A value not
    known to be a tensor counts when indexed along several dimensions (``x[:, :, a:b]``: no list is)."""
    if base is None or not base.tensorish:
        return False
    return base.nograd_fill_view or (interp.unit.nograd and (base.kind == TENSOR or several_dims)
                                     and base.grad != YES)


def _tuple_outputs(interp: "Interpreter", info: OpInfo) -> Tuple[Tuple[str, bool], ...]:
    """(output name, saved for backward) for ops returning several tensors, else (). Torch's Python call
    decides how many: the first of its ATen overload's outputs (``F.layer_norm`` returns one tensor of
    three, ``torch.linalg.slogdet`` two of four)."""
    aten = interp.k.aten.get(info.aten or "")
    count = info.returns
    if not aten or count < 2 or len(aten.get("outputs", ())) < count or info.view_of:
        return ()
    saved = set(aten.get("saves_result", ()))
    return tuple((name, name in saved) for name in aten["outputs"][:count])


def _is_index_output(name: str) -> bool:
    return "indices" in name or name in ("index", "argmax", "argmin")


def binary_op(interp: "Interpreter", state: State, node, op: Optional[str], left: Val, right: Val,
              left_node, right_node) -> Val:
    if op is None:
        return Val()
    if not left.tensorish and not right.tensorish:
        if op == "add" and left.kind == right.kind == CONTAINER and left.parts is not None \
                and right.parts is not None and left.keys is None and right.keys is None:
            return container_of(list(left.parts + right.parts))  # [a, b] + [c]: position by position
        if left.kind == CONTAINER or right.kind == CONTAINER:
            return left.join(right) if left.kind == right.kind else Val(kind=CONTAINER, grad=NO,
                                                                        groups=left.groups | right.groups,
                                                                        hist=left.hist | right.hist)
        return OTHER_VAL
    if not left.tensorish and right.tensorish:
        args = {"self": right, "other": left}
        nodes = {"self": right_node, "other": left_node}
        name = "operator.r" + op.rstrip("_")
        if interp.k.lookup(name) is None:
            name = "operator." + op
    else:
        args = {"self": left, "other": right}
        nodes = {"self": left_node, "other": right_node}
        name = "operator." + op
    info = interp.k.lookup_call(name, frozenset(args), numbers=frozenset(p for p, v in args.items() if v.kind == OTHER),
                                tensors=frozenset(p for p, v in args.items() if v.tensorish))
    return apply_op(interp, state, node, name, args, nodes, info)


# ============================================================================== calls
def call(interp: "Interpreter", state: State, node: cst.Call) -> Val:
    func = node.func
    qualname = interp.unit.imports.resolve(func)
    if qualname is None and type(func) is cst.Name and func.value not in state.env:
        qualname = _star_import(interp, func.value)
    if qualname is not None:
        root = qualname.split(".")[0]
        if root == "torch":
            return torch_call(interp, state, node, qualname)
        if qualname in ("copy.deepcopy", "copy.copy") and node.args:
            value = interp.eval(state, node.args[0].value)
            return replace(value, groups=frozenset({interp.new_group(state, node)}), leaf=False, fresh=False) \
                if value.tensorish else value
        if qualname == "functools.partial":
            return _partial(interp, state, node)
        if root in NON_TORCH_ROOTS:
            for arg in node.args:
                interp.eval(state, arg.value)
            return OTHER_VAL
        return _unknown_call(interp, state, node, None)
    if type(func) is cst.Attribute:
        key = dotted(func)
        if key is not None and key in state.env:
            callee = state.env[key]
            if callee.kind == MODULE and callee.module is not None:
                return module_call(interp, state, node, callee.module, callee)
            if callee.callee is not None:
                return _call_held(interp, state, node, callee)
            return _unknown_call(interp, state, node, callee, func)
        self_name = interp.unit.self_name
        if type(func.value) is cst.Name and self_name and func.value.value == self_name:
            if func.attr.value == "register_buffer" and \
                    _register_buffer(interp, state, node, func.value.value):
                return OTHER_VAL
            # self.helper(x): a method or submodule we cannot see; values flow through it
            unit = interp.unit
            if unit.class_name:
                interp.ctx.note_edge(unit, (unit.class_name, func.attr.value))
                helper = interp.ctx.method_writes.get((unit.class_name, func.attr.value))
                if helper is not None:
                    return _call_writing_helper(interp, state, node, None, *helper, label=func.attr.value)
            vals = [interp.eval(state, a.value) for a in node.args]
            interp.ctx.read_summary((unit.class_name, func.attr.value))
            returned = interp.ctx.views_returned.get((unit.class_name, func.attr.value))
            if returned is not None:
                return returned
            built = interp.ctx.returned_modules.get((unit.class_name, func.attr.value))
            if built is not None:  # self._make_layer(...): the module it builds
                return _built_here(interp, built, node)
            viewed = interp.ctx.nograd_view_returns.get((unit.class_name, func.attr.value))
            if viewed is not None and viewed.position < len(vals) and \
                    not any(a.keyword or a.star for a in node.args):
                handed = {i: vals[at] if at < len(vals) else Val() for i, _name, at in viewed.handed}
                return _nograd_view_result(interp, state, node, viewed, vals[viewed.position], vals, handed)
            key = (unit.class_name, func.attr.value)
            params = _argument_params(interp, key) if unit.class_name else None
            bound = bind_arguments(params, node, vals) if params is not None else None
            mark = len(interp.renamed)
            saves = frozenset()
            if bound is not None:
                saves = _saved_arguments(interp, state, node, key, f"self.{func.attr.value}", bound)
            # a method of this nn.Module class: what it returns may be computed with the module's parameters
            own = ModuleInfo(None, "params:" + (unit.class_name or "")) \
                if unit.class_name in interp.ctx.user_modules else None
            result = unknown_result(interp, state, node, vals, owner=own)
            if unit.class_name and (interp.ctx.nograd_returns.get(key) or bound is not None and _nograd_given(
                    interp, key, {p: v for p, (v, _n) in bound.items()}, [])):
                # ``offset = self._padding_offset(x)`` that builds its result from constants: no grad
                return _holding(interp, replace(result, grad=NO, origin=None), saves, mark)
            if unit.class_name:
                result = _summarised_return(interp, state, node, result, key, func.attr.value)
                groups = _param_saves_of(interp, key) if not unit.nograd and not unit.hooks_depth else None
                if groups:
                    # ``def all_items(self): return self.proj(self.emb.weight)``: what it returns was computed
                    # by ops that saved the module's parameters, and the caller holds those saves (as it does
                    # a submodule's: module_call)
                    label = f"self.{func.attr.value}"
                    saves = saves | {_parameter_save(interp, state, node, label, groups, key, by_method=True,
                                                     module_node=func.value)}
            return _holding(interp, result, saves, mark)
        receiver = interp.eval(state, func.value)
        return method_call(interp, state, node, receiver, func.attr.value)
    if type(func) is cst.Name:
        name = func.value
        held = interp.ctx.globals.get(name)
        if name in state.env or (held is not None and (held.kind == MODULE or held.callee is not None)):
            callee = state.env[name] if name in state.env else interp.ctx.globals[name]
            if callee.kind == MODULE and callee.module is not None:
                return module_call(interp, state, node, callee.module, callee)
            if callee.callee is not None:
                return _call_held(interp, state, node, callee)
            return _unknown_call(interp, state, node, callee, func)
        if name in interp.ctx.user_modules or _writes_arguments_passed(interp, name):
            return _construct_user_module(interp, state, node, name)
        if name in interp.ctx.function_writes:
            return _call_writing_helper(interp, state, node, name, *interp.ctx.function_writes[name])
        if name in interp.ctx.function_params:
            return _call_user_function(interp, state, node, name)
        return builtin_call(interp, state, node, name)
    callee = interp.eval(state, func)
    if callee.kind == MODULE and callee.module is not None:
        return module_call(interp, state, node, callee.module, callee)
    if callee.callee is not None:  # partial(nn.ReLU, inplace=True)(), ACTIVATIONS["relu"](x)
        return _call_held(interp, state, node, callee)
    return _unknown_call(interp, state, node, callee, func)


def _foreach_write(interp: "Interpreter", state: State, node: cst.Call, qualname: str) -> Val:
    """``torch._foreach_mul_(tensors, 0.99)``: the op in place on every tensor of the list it is given first
    (a leaf that requires grad among them is refused at once; each one's version moves). It returns None."""
    vals = [interp.eval(state, a.value) for a in node.args]
    first = node.args[0] if node.args else None
    tensors = vals[0] if vals else Val()
    target = tensors.element() if tensors.kind in (CONTAINER, PARAMS) else tensors
    if first is None or first.keyword is not None or first.star or not target.tensorish:
        return OTHER_VAL
    write = interp.write_site(node, "foreach", qualname.split(".")[-1] + "()", first.value)
    others = {f"arg{index}": val for index, val in enumerate(vals[1:], 1)}
    interp.inplace_write(state, target, write, {"self": target, **others}, None, node, qualname)
    return OTHER_VAL


def _partial(interp: "Interpreter", state: State, node: cst.Call) -> Val:
    """``functools.partial(nn.LeakyReLU, 0.1, inplace=True)`` (timm's ``act_layer``): the torch callable, with
    the partial's arguments bound; calling it calls the callable with them first."""
    vals = [interp.eval(state, a.value) for a in node.args]
    return _bound(vals[0] if vals else OTHER_VAL, node)


def partial_default(interp: "Interpreter", node: cst.Call) -> Val:
    """A parameter's default ``partial(nn.ReLU, inplace=True)`` (read without evaluating anything)."""
    if interp.unit.imports.resolve(node.func) != "functools.partial" or not node.args:
        return OTHER_VAL
    return _bound(torch_callable(interp, interp.unit.imports.resolve(node.args[0].value)), node)


def _bound(held: Val, partial: cst.Call) -> Val:
    first = partial.args[0] if partial.args else None
    if first is None or first.keyword is not None or any(a.star for a in partial.args) \
            or held.callee is None or held.bound is not None:
        return OTHER_VAL
    return replace(held, bound=partial)


def _call_held(interp: "Interpreter", state: State, node: cst.Call, held: Val) -> Val:
    """A call of a torch callable held as a value (``act_layer(...)``), a partial's arguments first."""
    if held.bound is not None:
        node = interp.ctx.bound_call(node, held.bound)
    return torch_call(interp, state, node, held.callee)


def _star_import(interp: "Interpreter", name: str) -> Optional[str]:
    for base in ("torch", "torch.nn", "torch.nn.functional"):
        if "*" + base in interp.unit.imports.names:
            candidate = f"{base}.{name}"
            if interp.k.lookup(candidate) is not None or candidate in FACTORIES:
                return candidate
    return None


def _unknown_call(interp: "Interpreter", state: State, node: cst.Call, callee: Optional[Val], func_node=None,
                  owner: Optional[ModuleInfo] = None) -> Val:
    vals = [interp.eval(state, a.value) for a in node.args]
    named = type(func_node) in (cst.Name, cst.Attribute)
    unseen_module = callee is not None and callee.kind == UNKNOWN and named and \
        looks_like_module(dotted(func_node) or "")
    if unseen_module or (callee is not None and callee.kind == MODULE):
        # a module we cannot see (or one taken out of a list built by a comprehension): its parameters may
        # be saved (and an optimizer may step them)
        label = (dotted(func_node) if named else None) or "module"
        module = ModuleInfo(None, "params:" + label, label=label)
        return module_call(interp, state, node, module, callee, vals)
    return unknown_result(interp, state, node, vals, owner=owner)


def _call_user_function(interp: "Interpreter", state: State, node: cst.Call, name: str) -> Val:
    """A call to a module-level function of this file: note what it is passed, values flow through."""
    bound = bind(interp, state, node, interp.ctx.function_params[name])
    interp.ctx.note_call(name, bound.vals, clean=not bound.extra and not any(a.star for a in node.args),
                          nograd=interp.unit.nograd,
                          constants=passed_constants(node, interp.ctx.function_params[name],
                                                     recursive=interp.unit.function_name == name
                                                     and interp.unit.class_name is None))
    interp.ctx.note_edge(interp.unit, (None, name))
    interp.ctx.read_summary((None, name))
    built = interp.ctx.returned_modules.get((None, name))
    if built is not None:  # a builder of this file: the module it returns
        return _built_here(interp, built, node)
    dispatch = interp.ctx.string_dispatch.get(name)
    if dispatch is not None and bound.nodes.get(dispatch[0]) is not None:
        # _get_activation_fn("relu"), or with a parameter whose default is "relu": F.relu
        chosen = dispatch[1].get(_string_value(interp, bound.nodes[dispatch[0]]) or "")
        if chosen is not None:
            return interp.eval(state, chosen)
    viewed = interp.ctx.nograd_view_returns.get((None, name))
    if viewed is not None and viewed.param in bound.vals:
        handed = {i: bound.vals.get(param, Val()) for i, param, _at in viewed.handed}
        return _nograd_view_result(interp, state, node, viewed, bound.vals[viewed.param],
                                   list(bound.vals.values()), handed)
    aliased = interp.ctx.alias_returns.get((None, name))
    if aliased is not None and aliased in bound.vals and bound.vals[aliased].tensorish:
        # ``flat = flatten_tokens(probs)``: the caller's tensor, or a view of it (writing one writes both)
        return replace(bound.vals[aliased], fresh=False, parts=None)
    mark = len(interp.renamed)
    saves = _saved_arguments(interp, state, node, (None, name), name, _passed(bound))
    result = unknown_result(interp, state, node, list(bound.vals.values()) + bound.extra)
    if interp.ctx.nograd_returns.get((None, name)) or (
            name in interp.ctx.nograd_functions and not any(v.leaf for v in bound.vals.values())) or \
            _nograd_given(interp, (None, name), bound.vals, bound.extra):
        # advantages, returns = compute_gae(...) with a no_grad body, or a @torch.no_grad() helper: nothing
        # it returns requires grad (unless it hands back a leaf it was given, as it is)
        return replace(result, grad=NO)
    result = _summarised_return(interp, state, node, result, (None, name), name)
    return _holding(interp, result, saves, mark)


def _nograd_given(interp: "Interpreter", key, vals: Dict[str, Val], extra: List[Val]) -> bool:
    """Does function ``key`` return only values that require no grad when given these arguments (by
    parameter; ``extra``: those bound to none), given that it does when the parameters it took for values
    requiring no grad, for want of evidence, are passed such?"""
    rests_on = interp.ctx.nograd_returns_of_nograd_args.get(key)
    return rests_on is not None and all(vals[p].grad == NO for p in rests_on if p in vals) and \
        all(v.grad == NO for v in extra)


def _argument_params(interp: "Interpreter", key) -> Optional[List[str]]:
    """The parameters of function ``key`` (class or None, name) once its argument-save summary is known
    (see :func:`_saved_arguments`); a read before it was is noted: the module is analysed once more."""
    interp.ctx.read_summary(key)
    params = interp.ctx.argument_params.get(key)
    if params is None:
        interp.ctx.argument_save_asked.add(key)
    return params


def _passed(bound: Bound) -> Dict[str, Tuple[Val, object]]:
    """A bound call's arguments as (value, node) by parameter (what :func:`bind_arguments` gives)."""
    return {p: (v, bound.nodes.get(p)) for p, v in bound.vals.items()}


def _saved_arguments(interp: "Interpreter", state: State, node: cst.Call, key, label: str,
                     passed: Dict[str, Tuple[Val, object]]) -> FrozenSet[RecordId]:
    """A call of a function of this file whose result came from ops that saved some of its parameters
    (``def score(q, k): return q @ k.transpose(-1, -2)``): the call saves what the caller passed for them,
    for as long as the caller holds the result -- when an argument whose requiring grad made the save
    does here (``scale(x, 0.5)`` with ``return x * s`` saves nothing). Made before the call's result is
    allocated (in a loop, ``q = score(q, w)`` saves the tensor the last round allocated, not the new one),
    and handed to the result with :func:`_holding`. A read before the function was analysed is noted: the
    module is analysed once more (interpret_module)."""
    params = _argument_params(interp, key)
    summary = interp.ctx.argument_saves.get(key)
    if params is None or interp.unit.nograd or interp.unit.hooks_depth or not summary:
        return frozenset()
    new = set()
    for param in [p for p in params if p in summary]:
        val, text = passed.get(param, (None, None))
        if val is None or not val.tensorish or not val.groups:
            continue
        condition = summary[param]
        if condition is None or not ALWAYS_SAVED <= condition:
            makers = [v for v, _n in passed.values()] if condition is None else [
                passed[p][0] for p in condition if p in passed]
            if not any(v.tensorish and v.grad != NO for v in makers):
                continue
        sid = interp.ctx.site(node, "save:argument:" + param)
        interp.ctx.argument_save_sites[sid] = interp.ctx.argument_save_ops.get((key, param))
        makers = [v for v, _n in passed.values()] if condition is None or ALWAYS_SAVED <= condition else [
            passed[p][0] for p in condition if p in passed]
        site = SaveSite(sid, node, label, text if text is not None else param, "input", param,
                        origin_of(makers))
        new.add(interp.create_record(state, sid, site, val.groups))
    return frozenset(new)


def _holding(interp: "Interpreter", result: Val, saves: FrozenSet[RecordId], mark: int) -> Val:
    """``result``, computed from values evaluated when ``len(interp.renamed)`` was ``mark`` (their history
    catches up with the renames since: an older save at the same site is the older generation now),
    holding ``saves``, the call's own new records."""
    if not saves:
        return result
    result = interp.catch_up(result, mark)
    parts = None
    if result.parts is not None:
        caught = [interp.catch_up(part, mark) for part in result.parts]
        parts = tuple(replace(part, hist=part.hist | saves) for part in caught)
    return replace(result, hist=result.hist | saves, parts=parts)


def _built_here(interp: "Interpreter", built: Val, call: cst.Call) -> Val:
    """The module a builder of this file returns, as built by ``call``: each call builds other parameters
    (``netG, netD = build(8, 4), build(4, 1)``: stepping one optimizer writes only its own module's)."""
    salt = str(interp.ctx.site(call, "built"))

    def rebased(module: ModuleInfo) -> ModuleInfo:
        # its layers' saves are made at the call that runs them (site -1), not at the builder's constructors,
        # which every module it built shares
        return replace(module, param_group=f"{module.param_group}@{salt}", site=-1,
                       sequence=tuple(rebased(element) for element in module.sequence))

    return replace(built, module=rebased(built.module))


def _nograd_view_result(interp: "Interpreter", state: State, node: cst.Call, summary: NogradViewReturn,
                        argument: Val, vals, handed: Dict[int, Val]) -> Val:
    """The result of a helper that returns a view made under no_grad of ``argument`` (or of a tensor its
    ``summary.attrs`` reach), alone or in a tuple: that view (writing it writes its base), refused by torch
    when written in place with grad on if the base requires grad, or with a value that does if the base is
    a tensor (known so, or viewed by a tensor method). ``handed``: the tuple's elements that are arguments
    handed back as they are, by position."""
    result = unknown_result(interp, state, node, vals)
    base = argument
    for attr in summary.attrs:  # model.embed.weight: the parameter of the module passed
        if base.kind != MODULE or base.module is None:
            return result
        base = module_attribute(interp, base.module, attr, attr)
    if base.tensorish and base.grad == YES:
        view = replace(base, fresh=False, parts=None, grad=NO, nograd_view=True)
    elif base.kind == TENSOR or (base.tensorish and summary.by_method):
        view = replace(base, fresh=False, parts=None, nograd_fill_view=True)
    else:
        return result
    element, length = summary.element, summary.length
    if element is None:
        return view
    # the tuple's other elements were made under no_grad too, or are arguments handed back
    made = replace(result, grad=NO)
    parts = tuple(view if index == element else handed[index] if index in handed else unpack(made, index)
                  for index in range(length))
    groups = view.groups | made.groups
    for value in handed.values():
        groups |= value.groups
    return Val(kind=CONTAINER, grad=MAYBE if handed else view.grad, groups=groups, hist=made.hist, parts=parts)


# ... and a method's writes to its own parameters (``for t in self.state_dict().values(): t.clamp_(-c, c)``)
SELF_PARAMETERS = SELF_ATTRIBUTE + "parameters()"


def _register_forward_hook(interp: "Interpreter", state: State, node: cst.Call, module: ModuleInfo,
                           receiver_node) -> Val:
    """``module.register_forward_hook(hook)`` with a hook of this file that writes its ``output`` argument
    in place (``output.mul_(0.5)``). The hook runs right after every forward of the module, when the module's
    own ops have saved what they need (a sigmoid its result): the write makes that saved tensor stale,
    and the backward of any forward with grad raises. One such forward, on an input that requires grad,
    stands for them all. (A hook that returns a new tensor replaces the output instead: no write.)"""
    vals = [interp.eval(state, a.value) for a in node.args]
    first = node.args[0] if node.args else None
    hook = first.value if first is not None and first.keyword is None and not first.star else None
    label = hook.value if type(hook) is cst.Name else None
    found = interp.ctx.function_writes.get(label) if label is not None else None
    if found is None and type(hook) is cst.Call:
        label, found = _made_hook(interp, hook)
    if found is None or interp.unit.nograd or not _hooked_forwards_record(interp, module.narrowed):
        return unknown_result(interp, state, node, vals)  # the handle
    params, writes = found
    output = params[2] if len(params) >= 3 else None
    if output not in writes:
        return unknown_result(interp, state, node, vals)
    # the forward's saves are reported at the hooked module's expression (``model.act``)
    forward = receiver_node if receiver_node is not None else node
    forward_input = Val(kind=TENSOR, grad=YES, groups=frozenset({interp.new_group(state, forward, "hook:input")}),
                        origin=GradOrigin(forward, HOOKED_INPUT))
    forward_output = _apply_module(interp, state, forward, module, [forward_input])
    interp.escape(state, forward_output)  # what the forward returns is what its caller's backward needs
    if forward_output.tensorish and forward_output.groups:
        interp.ctx.note_call(label, {}, clean=False, nograd=False)  # called by torch, never refined
        # the module's caller holds the output: rebinding the name inside the hook would change nothing
        for sid in _write_through_helper(interp, state, forward_output, output, writes[output], label,
                                         private=False, seen_outside=True):
            interp.ctx.notes_of(sid).hook = label
    return unknown_result(interp, state, node, vals)


def _made_hook(interp: "Interpreter", call: cst.Call):
    """(its name, (parameters, writes)) of the hook a factory of this file returns (``self._make_hook(name)``
    or ``make_hook(name)``: a function whose body defines the hook and returns it), when the hook writes a
    parameter in place; else (None, None)."""
    func, factory = call.func, None
    if type(func) is cst.Name:
        factory = interp.ctx.top_level_function(func.value)
    elif type(func) is cst.Attribute and type(func.value) is cst.Name and interp.unit.class_name and \
            func.value.value == interp.unit.self_name:
        cls = interp.ctx.class_statement(interp.unit.class_name)
        if cls is not None and type(cls.body) is cst.IndentedBlock:
            factory = next((m for m in cls.body.body if type(m) is cst.FunctionDef
                            and m.name.value == func.attr.value), None)
    if factory is None or type(factory.body) is not cst.IndentedBlock:
        return None, None
    nested = {s.name.value: s for s in factory.body.body if type(s) is cst.FunctionDef}
    returned = [small.value.value for s in factory.body.body if type(s) is cst.SimpleStatementLine
                for small in s.body if type(small) is cst.Return and type(small.value) is cst.Name]
    if len(returned) != 1 or returned[0] not in nested:
        return None, None
    hook = nested[returned[0]]
    writes = parameter_writes(hook, interp.k)
    return (hook.name.value, ([name for name, _ in parameter_list(hook)], writes)) if writes else (None, None)


def _hooked_forwards_record(interp: "Interpreter", hooked_by_type: bool = False) -> bool:
    """Are the hooked module's forwards ones autograd records, as far as the registering code shows? Yes
    in a method of a module class (the model is what gets trained); elsewhere only if the registering
    function (or the module's top level) runs a backward itself: hooks that edit outputs in place are
    common in inference and ablation code under no_grad, where nothing is saved. Hooks put on every
    module of a class (``hooked_by_type``, an ``install_clipping(model)`` helper) also when the file's
    whole text runs a backward anywhere."""
    unit = interp.unit
    if unit.class_name and unit.class_name in interp.ctx.user_modules:
        return True
    if hooked_by_type and interp.ctx.file_runs_backward:
        # hooks put on every module of a torch class (``if isinstance(m, nn.Tanh)``) by a file that trains
        return True
    if unit.function_name:
        roots = [interp.ctx.current_unit]
    else:
        roots = [s for s in interp.ctx.module.body if not type(s) in (cst.FunctionDef, cst.ClassDef)]
    for root in roots:
        for node in walk(root):
            if type(node) is not cst.Call:
                continue
            if type(node.func) is cst.Attribute and node.func.attr.value == BACKWARD_METHOD:
                return True
            if (unit.imports.resolve(node.func) or "") == BACKWARD_FUNCTION:
                return True
    return False


def _method_writes_receiver(interp: "Interpreter", state: State, module: ModuleInfo, name: str,
                            call: cst.Call, only_renormalising: bool = False) -> None:
    """``critic.clip_weights(c)``: a method of this file's module class that writes the module's own
    parameters in place (or one of its tensor attributes) writes those of ``critic``. With
    ``only_renormalising`` (a call of the module itself, ``decoder(tokens, h)``), only its lookups in an
    embedding built with ``max_norm``: each such forward makes the weight saved by an earlier one stale."""
    found = interp.ctx.method_writes.get((module.user_class, name))
    if found is None:
        return
    _params, writes = found
    attributes = interp.ctx.read_attributes(module.user_class)
    for param, sites in writes.items():
        if only_renormalising:
            sites = [site for site in sites if site[1] == "renorm"]
            if not sites:
                continue
        if param == SELF_PARAMETERS:
            target = Val(kind=TENSOR, grad=NO, groups=module_param_groups(module))
        elif param.startswith(SELF_ATTRIBUTE) and param[len(SELF_ATTRIBUTE):] in attributes:
            target = attributes[param[len(SELF_ATTRIBUTE):]]
            if target.kind == MODULE and target.module is not None:  # self.emb: its weight
                target = Val(kind=TENSOR, grad=NO, groups=module_param_groups(target.module))
        else:
            continue  # a write to an argument: not followed from outside the class
        if not target.tensorish or not target.groups:
            continue
        # the receiver's tensors, seen by everyone holding the module: rebinding inside the method would
        # change nothing
        for sid in _write_through_helper(interp, state, target, param, sites, name, private=False,
                                         seen_outside=True):
            calls = interp.ctx.notes_of(sid).outside_calls
            if call not in calls and not only_renormalising:  # the fix moves a method call, never a forward
                calls.append(call)


def _argument_writes(interp: "Interpreter", module: ModuleInfo, name: str):
    """``(params, writes)`` of method ``name`` of the module's class (of this file) when it writes one of its
    arguments in place, else None."""
    found = interp.ctx.method_writes.get((module.user_class, name))
    return found if found is not None and any(param in found[0] for param in found[1]) else None


def _method_writes_arguments(interp: "Interpreter", state: State, found, name: str, call: cst.Call,
                             bound: Dict[str, Tuple[Val, object]]) -> None:
    """``encoder(seqs)`` / ``stage.refine(h)`` of a class of this file whose method writes an argument in
    place (``seqs *= mask``; ``found``: its :func:`_argument_writes`): that writes the caller's tensor, as a
    call of a helper function does."""
    params, writes = found
    for param, sites in writes.items():
        if param not in params or param not in bound:
            continue
        target, arg_node = bound[param]
        if target.groups or (target.kind == MODULE and target.module is not None):  # a tensor we can name
            _write_argument(interp, state, call, target, arg_node, param, sites, name)


def _write_through_helper(interp: "Interpreter", state: State, target: Val, param: str, sites: list,
                          label: str, private: bool, seen_outside: bool = False) -> List[int]:
    """The in-place writes ``sites`` of a helper of this file (``label``) to its parameter ``param``, which
    holds ``target``: each bumps what ``target`` shares its version counter with. ``seen_outside``: the
    written tensor is seen outside the helper, whatever the helper's own analysis found (no rebinding
    fix). Returns the write sites."""
    sids = []
    for write_node, form, op_text in sites:
        # a helper's update of a tensor of the module it is passed is, for its callers, a parameter update
        # (a site of its own: the helper's analysis of the same write, a leaf's say, keeps its form)
        sid = interp.ctx.site(write_node, "update" if form == "parameter_update" else "write")
        # the in-place layer's own construction (a Sequential's first layer): its ``inplace=`` is what a fix edits
        built_here = form == "module_call" and type(write_node) is cst.Call
        kwarg = keyword(write_node, INPLACE_KEYWORD) if built_here else None
        write = interp.ctx.write_sites.get(sid) or WriteSite(sid, write_node, form, op_text, param, kwarg, True)
        interp.ctx.write_sites[sid] = write
        interp.ctx.note_private_arg(sid, private)
        if seen_outside:
            interp.ctx.note_sharing(sid, True, None)
        interp.ctx.notes_of(sid).helper = label
        interp.bump(state, target.groups, write, target.spares)
        sids.append(sid)
    return sids


def _call_writing_helper(interp: "Interpreter", state: State, node: cst.Call, name: Optional[str], params: List[str],
                         writes: Dict[str, list], label: str = "") -> Val:
    """A call to a function of this file (``name``; None for a method of the caller's class) that writes
    some of its parameters in place."""
    bound = bind(interp, state, node, params)
    label = name or label
    interp.ctx.helper_call_nodes.setdefault(label, set()).add(id(node))
    if name is not None:
        interp.ctx.note_call(name, bound.vals, clean=not bound.extra and not any(a.star for a in node.args),
                              nograd=interp.unit.nograd, constants=passed_constants(node, params))
        interp.ctx.note_edge(interp.unit, (None, name))
    for param, sites in writes.items():
        target = bound.vals.get(param)
        if param == SELF_PARAMETERS and name is None:  # self.m(...) writes self's parameters: any module's
            target = Val(kind=TENSOR, grad=NO, groups=frozenset({"params:*"}))
        elif param.startswith(SELF_ATTRIBUTE) and name is None:  # self.m(...) writes one of self's tensors
            key = interp.unit.self_name + "." + param[len(SELF_ATTRIBUTE):]
            # what a read of self.<attr> here gives (an attribute __init__ did not set: its own group)
            target = None if not interp.unit.self_name else state.env.get(key) or Val(
                kind=UNKNOWN, grad=guessed_grad(interp), groups=frozenset({"attr:" + key}))
        if target is not None:
            _write_argument(interp, state, node, target, bound.nodes.get(param), param, sites, label)
    return unknown_result(interp, state, node, list(bound.vals.values()) + bound.extra)


def _write_argument(interp: "Interpreter", state: State, call: cst.Call, target: Val, arg_node, param: str,
                    sites: list, label: str) -> None:
    """A helper's (or method's) in-place ``sites`` on its parameter ``param``, which the call bound to
    ``target``: the caller's tensor is written (a module's parameters, for a module passed in)."""
    if target.kind == MODULE and target.module is not None:
        # the helper writes the module's parameters (``for p in model.parameters(): p.mul_(d)``)
        target = Val(kind=TENSOR, grad=NO, groups=module_param_groups(target.module))
    if not target.tensorish:
        return
    private = _private_argument(interp, state, call, target, arg_node)
    _write_through_helper(interp, state, target, param, sites, label, private)


def _private_argument(interp: "Interpreter", state: State, call: cst.Call, value: Val, arg_node) -> bool:
    """Can the caller not see what a helper does to this argument in place? A temporary nothing else
    holds (``_scale(x * 2)``), or a local name that the call's own statement rebinds or returns
    (``w = self._sharpen(w)``) and that no other name holds."""
    if arg_node is None or any(not g.startswith("t") for g in value.groups) or not value.groups:
        return False
    name = arg_node.value if type(arg_node) is cst.Name else None
    holders = [n for n, v in state.env.items() if v.groups & value.groups and v.kind != MODULE and n != name]
    if holders:
        return False
    if name is None:
        return True
    statement = getattr(interp, "current_statement", None)
    if type(statement) is cst.Return:
        return statement.value is call
    return (type(statement) is cst.Assign and statement.value is call and len(statement.targets) == 1
            and type(statement.targets[0].target) is cst.Name and statement.targets[0].target.value == name)


def builtin_call(interp: "Interpreter", state: State, node: cst.Call, name: str) -> Val:
    vals = [interp.eval(state, a.value) for a in node.args]
    if name == "getattr" and len(node.args) == 2 and not any(a.keyword or a.star for a in node.args):
        # getattr(nn, activation)() with activation="ReLU": that torch class (or function)
        owner = interp.unit.imports.resolve(node.args[0].value)
        attr = _string_value(interp, node.args[1].value)
        if owner is not None and owner.split(".")[0] == "torch" and attr is not None and attr.isidentifier():
            return torch_callable(interp, owner + "." + attr)
    if name == "super" and interp.unit.class_name:
        # super().forward(x) in a subclass of a module (class L2Net(EmbeddingNet)): what the base class's
        # method returns may be a tensor, as any call we cannot see into (computed with the module's
        # parameters, when the class is a module of this file)
        module = interp.unit.class_name in interp.ctx.user_modules
        return Val(origin=GradOrigin(node, MODULE_PARAMETERS) if module else None)
    if name in ("list", "tuple", "sorted", "reversed", "set", "deque"):
        if vals:
            v = vals[0]
            if v.kind == CONTAINER:
                # list(d) holds a dict's keys, not its values: the values stay summarised
                return replace(v, parts=v.parts if name != "sorted" else None, keys=None)
            if v.kind == PARAMS:
                # list(model.parameters()): leaves that require grad, unless the module is frozen
                return Val(kind=CONTAINER, grad=v.grad, groups=v.groups, hist=v.hist, elem_kind=TENSOR,
                           leaf=v.leaf, origin=v.origin)
            element = v.element() if v.tensorish else v
            return container_of([element]) if element.kind != OTHER else Val(kind=CONTAINER, grad=NO,
                                                                             elem_kind=OTHER)
        return Val(kind=CONTAINER, grad=NO, elem_kind=UNKNOWN)
    if name == "dict":
        return container_of(vals) if vals else Val(kind=CONTAINER, grad=NO)
    if name in ("sum", "max", "min"):
        if vals and vals[0].kind == CONTAINER:
            element = vals[0].element()
            if element.tensorish:
                return replace(element, groups=frozenset({interp.new_group(state, node)}), leaf=False)
            return element
        if vals and any(v.tensorish for v in vals):
            return unknown_result(interp, state, node, vals)
        return OTHER_VAL
    if name in ("abs",) and vals and vals[0].tensorish:
        return apply_op(interp, state, node, "torch.abs", {"input": vals[0]}, {"input": node.args[0].value})
    if name in ("next",) and vals:
        return vals[0].element()
    if name in BUILTINS_OTHER:
        return OTHER_VAL
    return unknown_result(interp, state, node, vals)


def _writes_arguments_passed(interp: "Interpreter", class_name: str) -> bool:
    """A plain class of this file (no base, not callable) with a method that writes one of its arguments in
    place: its instances are followed as a module of this file's is, for those methods' calls."""
    methods = interp.ctx.plain_classes.get(class_name)
    if not methods:
        return False
    for method in methods:
        found = interp.ctx.method_writes.get((class_name, method))
        if found is not None and any(param in found[0] for param in found[1]):
            return True
    return False


def isinstance_narrowing(interp: "Interpreter", state: State, test) -> Optional[Tuple[str, Val]]:
    """``if isinstance(m, nn.Tanh):`` over a model's modules: in the branch, ``m`` is a module of that torch
    class (one of a tuple's, or of a parameter's tuple default, the first), which a forward hook registered
    on it runs after. (name, that module), or None when the test is no such check of a name of unknown
    kind or a module of unknown class."""
    if type(test) is not cst.Call or type(test.func) is not cst.Name or test.func.value != "isinstance" or \
            len(test.args) != 2 or type(test.args[0].value) is not cst.Name:
        return None
    name = test.args[0].value.value
    current = state.env.get(name)
    unknown_module = current is not None and current.kind == MODULE and current.module is not None and \
        current.module.qualname is None and current.module.user_class is None
    if current is None or not (current.kind == UNKNOWN or unknown_module):
        return None
    types = test.args[1].value
    if type(types) is cst.Name and types.value in interp.unit.params:
        types = parameter_default(interp, types) or types
    if type(types) in (cst.Tuple, cst.List):
        types = types.elements[0].value if types.elements else None
    qualname = interp.unit.imports.resolve(types) if types is not None else None
    info = interp.k.lookup(qualname) if qualname else None
    if info is None or info.kind != "module":
        return None
    sid = interp.ctx.site(test, "isinstance")
    module = ModuleInfo(qualname, current.module.param_group if current.kind == MODULE else f"params#{sid}",
                        has_params=_saves_parameters(info), site=sid, label=name, narrowed=True)
    return name, Val(kind=MODULE, grad=NO, module=module)


def _construct_user_module(interp: "Interpreter", state: State, node: cst.Call, class_name: str) -> Val:
    params = interp.ctx.init_params.get(class_name)
    if params is None:
        for a in node.args:
            interp.eval(state, a.value)
    else:
        bound = bind(interp, state, node, params)
        interp.ctx.note_construction(class_name, bound.vals,
                                     clean=not bound.extra and not any(a.star for a in node.args))
    sid = interp.ctx.site(node, "module")
    info = ModuleInfo(None, f"params#{sid}", site=sid, label=class_name, user_class=class_name)
    return Val(kind=MODULE, grad=NO, module=info)


def torch_call(interp: "Interpreter", state: State, node: cst.Call, qualname: str) -> Val:
    k = interp.k
    if qualname in FACTORIES:
        for a in node.args:
            interp.eval(state, a.value)
        rg = keyword(node, "requires_grad")
        requires = rg is not None and not is_false_or_none(rg.value)
        grad = YES if requires and is_true(rg.value) else (MAYBE if requires else NO)
        return Val(kind=TENSOR, grad=grad, groups=frozenset({interp.new_group(state, node)}), leaf=grad == YES,
                   fresh=not requires, origin=GradOrigin(node, REQUIRES_GRAD) if requires else None)
    if qualname in PARAMETER_CTORS:
        vals = [interp.eval(state, a.value) for a in node.args]
        rg = keyword(node, "requires_grad")
        if qualname.endswith("Buffer") or (rg is not None and is_false_or_none(rg.value)):
            return Val(kind=TENSOR, grad=NO, groups=frozenset({interp.new_group(state, node)}))
        return Val(kind=TENSOR, grad=YES, groups=frozenset({interp.new_group(state, node)}), leaf=True,
                   origin=GradOrigin(node, PARAMETER))
    if qualname in ("torch.autograd.grad", "torch.autograd.backward", "torch.autograd.functional.vjp"):
        return _backward_call(interp, state, node, qualname)
    if qualname.startswith("torch.optim.") and qualname.count(".") == 2 and qualname.split(".")[-1][:1].isupper():
        vals = [interp.eval(state, a.value) for a in node.args]
        params = vals[0] if vals else Val()
        groups = frozenset(g for g in params.groups if g.startswith("params"))
        if params.kind == TENSOR or (params.kind == CONTAINER and params.elem_kind == TENSOR):
            groups |= params.groups  # SGD([w, b]) with leaf tensors of this function: step writes those
        return Val(kind=OPTIMIZER, grad=NO, params_of=groups or frozenset({"params:*"}))
    if qualname.startswith("torch.nn.init.") and qualname.endswith("_"):
        vals = [interp.eval(state, a.value) for a in node.args]
        if vals and vals[0].tensorish:
            write = interp.write_site(node, "function", qualname.split(".")[-1] + "()", node.args[0].value)
            interp.bump(state, vals[0].groups, write)
        return vals[0] if vals else Val()
    if qualname in NOGRAD_CONTEXTS or qualname in ENABLE_GRAD or qualname in SET_GRAD:
        for a in node.args:
            interp.eval(state, a.value)
        return OTHER_VAL
    if qualname == SEQUENTIAL:
        return _sequential(interp, state, node)
    if qualname in ("torch.nn.ModuleList", "torch.nn.ModuleDict", "torch.nn.ParameterList"):
        vals = [interp.eval(state, a.value) for a in node.args]
        if vals and vals[0].kind == CONTAINER:
            return vals[0]
        if not node.args and qualname == "torch.nn.ModuleList":
            return container_of([])  # filled by append: its elements stay in order, as a list's do
        return Val(kind=CONTAINER, grad=NO, elem_kind=UNKNOWN)
    if qualname.startswith("torch.Tensor.") and node.args:
        receiver = interp.eval(state, node.args[0].value)
        rest = cst.Call(func=node.func, args=node.args[1:])
        return method_call(interp, state, node, receiver, qualname.split(".")[-1], call_node=rest,
                           receiver_node=node.args[0].value)
    if qualname.startswith("torch._foreach_") and k.foreach_inplace(qualname):
        return _foreach_write(interp, state, node, qualname)
    info = k.lookup(qualname)
    if info is not None and info.kind == "module":
        return _construct_module(interp, state, node, qualname, info)
    if info is None and qualname.startswith("torch.nn.") and qualname.split(".")[-1][:1].isupper():
        # a torch.nn module the table does not cover: parameters unknown, not in place
        for a in node.args:
            interp.eval(state, a.value)
        sid = interp.ctx.site(node, "module")
        label = interp.ctx.code(node.func)
        return Val(kind=MODULE, grad=NO, module=ModuleInfo(qualname, f"params#{sid}", inplace=False,
                                                           site=sid, label=label))
    if info is None:
        vals = [interp.eval(state, a.value) for a in node.args]
        return unknown_result(interp, state, node, vals)
    bound = bind(interp, state, node, info.params, info.kwonly)
    info, bound = choose_overload(interp, qualname, info, bound)
    bound = _collect_varargs(info, bound)
    return call_with_info(interp, state, node, qualname, info, bound, method=False)


def _collect_varargs(info: OpInfo, bound: Bound) -> Bound:
    """Extra positional tensors belong to a trailing variadic parameter (``einsum(eq, *operands)``)."""
    if not info.params:
        return bound
    last = info.params[-1]
    if last not in info.tensor_params or last not in bound.vals:
        return bound
    if not bound.extra:
        single = bound.args.get(last)
        if single is None or single.keyword is not None or single.star or not bound.vals[last].tensorish \
                or not any(save.for_others and save.target == last for save in info.saves):
            return bound
        # ``einsum('ijj->i', x)``: one operand, no other whose requiring grad would make it saved
        return Bound(bound.vals, bound.nodes, bound.args, [], bound.passed, bound.evaluated,
                     {last: [(bound.vals[last], single.value)]})
    merged = bound.vals[last]
    for val in bound.extra:
        merged = merged.join(val)
    vals = dict(bound.vals)
    vals[last] = merged
    elements = None
    if bound.evaluated is not None and not any(arg.star for arg, _val in bound.evaluated):
        first = bound.args.get(last)
        positional = [(val, arg.value) for arg, val in bound.evaluated if arg.keyword is None]
        start = next((i for i, (_v, node) in enumerate(positional) if first is not None and node is first.value), None)
        if start is not None:
            elements = {last: positional[start:]}
    return Bound(vals, bound.nodes, bound.args, [], bound.passed, bound.evaluated, elements)


def _ctor_inplace(node: cst.Call, ctor_params, true_names=frozenset()) -> Optional[cst.Arg]:
    """The argument that makes a module constructor build it in place (``inplace=True``/``True``, or a
    parameter of the enclosing function in ``true_names``: True by default and never passed)."""
    def true(value) -> bool:
        return is_true(value) or (type(value) is cst.Name and value.value in true_names)

    kw = keyword(node, INPLACE_KEYWORD)
    if kw is not None:
        return kw if true(kw.value) else None
    if INPLACE_KEYWORD in ctor_params:
        index = list(ctor_params).index(INPLACE_KEYWORD)
        positional = [a for a in node.args if a.keyword is None and not a.star]
        if index < len(positional) and true(positional[index].value):
            return positional[index]
    return None


def _saves_parameters(info: OpInfo) -> bool:
    """Does a torch module of this kind hold parameters its forward may save (a Linear's weight)?"""
    return bool(info.param_saves) or any(MODULE_PARAMS in s.when for s in info.saves) or any(
        s.target not in info.params and s.target != "result" for s in info.saves)


def _construct_module(interp: "Interpreter", state: State, node: cst.Call, qualname: str, info: OpInfo) -> Val:
    for a in node.args:
        interp.eval(state, a.value)
    sid = interp.ctx.site(node, "module")
    inplace_arg = _ctor_inplace(node, info.ctor_params, interp.unit.true_defaults)
    has_params = _saves_parameters(info)
    label = interp.ctx.code(node, 50)
    given = renormalising_arg(node, info)
    renormalises = given is not None
    flip = interp.ctx.inplace_flip
    # built out of place but switched in place later (``m.inplace = True`` over model.modules())
    flipped = (inplace_arg is None and flip is not None and INPLACE_KEYWORD in info.ctor_params
               and flip.covers(qualname))
    module = ModuleInfo(qualname, f"params#{sid}", inplace=inplace_arg is not None or flipped,
                        has_params=has_params, site=sid, label=label, renormalises=renormalises)
    if inplace_arg is not None:
        interp.ctx.module_inplace_args[sid] = (node, inplace_arg)
    if renormalises:
        interp.ctx.module_given_args[sid] = given
    return Val(kind=MODULE, grad=NO, module=module)


def _renormalise(interp: "Interpreter", state: State, node, target: Val, target_text: str,
                 given: Optional[cst.Arg]) -> None:
    """``max_norm`` given (``nn.Embedding(n, d, max_norm=1.0)``, ``F.embedding(i, w, max_norm=1.0)``): the
    call first renormalises the rows it looks up, in place under no_grad, so a save of the weight made
    before the call goes stale (no leaf error: torch writes it under no_grad)."""
    if not target.tensorish:
        return
    write = interp.write_site(node, "renorm", node, None, kwarg_node=given)
    write = replace(write, target_text=target_text)
    interp.ctx.write_sites[write.site] = write
    interp.bump(state, target.groups, write)


def _sequential(interp: "Interpreter", state: State, node: cst.Call) -> Val:
    elements: List[ModuleInfo] = []
    for arg in node.args:
        val = interp.eval(state, arg.value)
        if arg.star and val.kind == CONTAINER and val.parts and all(
                part.kind == MODULE and part.module is not None for part in val.parts):
            # nn.Sequential(*layers), layers a list built here
            elements.extend(part.module for part in val.parts)
            continue
        if arg.star:
            return Val(kind=MODULE, grad=NO, module=ModuleInfo(None, f"params#{interp.ctx.site(node, 'module')}"))
        if val.kind == MODULE and val.module is not None:
            elements.append(val.module)
        else:
            elements.append(ModuleInfo(None, f"params#{interp.ctx.site(arg, 'module')}", label=interp.ctx.code(arg.value)))
    sid = interp.ctx.site(node, "module")
    module = ModuleInfo("torch.nn.Sequential", f"params#{sid}", has_params=any(e.has_params for e in elements),
                        site=sid, label="nn.Sequential", sequence=tuple(elements))
    if any(e.inplace for e in elements) and not interp.unit.nograd:
        # An in-place module inside a Sequential bites whenever the model is trained: check the chain
        # now, on an input that may require grad, as if its output were backpropagated.
        scratch = state.copy()
        out = module_call(interp, scratch, node, module, None, [Val(kind=TENSOR, grad=MAYBE,
                                                                    groups=frozenset({f"seqin{sid}"}))])
        interp.escape(scratch, out)
    return Val(kind=MODULE, grad=NO, module=module)


def call_with_info(interp: "Interpreter", state: State, node: cst.Call, qualname: str, info: OpInfo, bound: Bound,
                   method: bool, module: Optional[ModuleInfo] = None, write_node=None) -> Val:
    """Dispatch a call whose op is in the table: in place (always, ``inplace=True``, ``out=``) or not."""
    if info.writes_given is not None and module is None:
        given = bound.args.get(info.writes_given[0])
        written = info.writes_given[1]
        if given is not None and renormalises(given.value) and written in bound.vals:
            text = dotted(bound.nodes.get(written)) or written
            _renormalise(interp, state, node, bound.vals[written], text, given)
    form = info.inplace
    if form is not None:
        kwarg_arg = None
        active = form.kwarg is None
        if form.kwarg is not None:
            kwarg_arg = bound.args.get(form.kwarg)
            active = kwarg_arg is not None and is_true(kwarg_arg.value)
            if module is not None and form.kwarg == INPLACE_KEYWORD:
                active = module.inplace
        if active:
            target = bound.vals.get(form.modifies)
            if target is None:
                return unknown_result(interp, state, node, list(bound.vals.values()))
            name = qualname.split(".")[-1]
            if module is not None:
                ctor = interp.ctx.module_inplace_args.get(module.site)
                func_text = interp.ctx.code(node.func) if type(node) is cst.Call else (module.label or name)
                write = interp.write_site(write_node or node, "module_call", func_text + "(...)",
                                          bound.nodes.get(form.modifies), kwarg_node=ctor[1] if ctor else None)
            elif form.kwarg is not None:
                write = interp.write_site(node, "inplace_kwarg", f"{form.kwarg}=True",
                                          bound.nodes.get(form.modifies), kwarg_node=kwarg_arg)
            else:
                write = interp.write_site(node, "method" if method else "function", name + "()",
                                          bound.nodes.get(form.modifies))
            texts = dict(bound.nodes)
            return interp.inplace_write(state, target, write, bound.vals, form, node, qualname, module, texts)
    out_arg = bound.args.get(OUT_KEYWORD)
    if out_arg is not None and not is_false_or_none(out_arg.value):
        target = bound.vals[OUT_KEYWORD]
        write = interp.write_site(node, "out_kwarg", "out=", out_arg.value, kwarg_node=out_arg)
        others = {p: v for p, v in bound.vals.items() if p != OUT_KEYWORD}
        return interp.inplace_write(state, target, write, others, None, node, qualname)
    vals = {p: v for p, v in bound.vals.items()}
    return apply_op(interp, state, node, qualname, vals, bound.nodes, info, module, bound.extra, bound.elements)


# ============================================================================== methods
def method_call(interp: "Interpreter", state: State, node: cst.Call, receiver: Val, name: str,
                call_node: Optional[cst.Call] = None, receiver_node=None) -> Val:
    call_node = call_node or node
    if receiver_node is None and type(node.func) is cst.Attribute:
        receiver_node = node.func.value
    kind = receiver.kind
    if kind == MODULE and receiver.module is not None:
        module = receiver.module
        if name in PARAMETER_WALKS:
            for a in call_node.args:
                interp.eval(state, a.value)
            element = Val(kind=TENSOR, grad=NO if module.frozen else YES, groups=module_param_groups(module),
                          leaf=not module.frozen, origin=None if module.frozen else GradOrigin(
                              call_node.func.value if type(call_node.func) is cst.Attribute else call_node,
                              MODULE_PARAMETERS))
            if name == "named_parameters":
                return _named(element)
            return Val(kind=PARAMS, grad=element.grad, groups=element.groups, leaf=element.leaf, origin=element.origin)
        if name == "forward":
            return module_call(interp, state, call_node, module, receiver)
        if name == REGISTER_FORWARD_HOOK:
            return _register_forward_hook(interp, state, call_node, module, receiver_node)
        if name == "requires_grad_":
            arg = call_node.args[0].value if call_node.args else None
            frozen = arg is not None and is_false_or_none(arg)
            new = replace(receiver, module=replace(module, frozen=frozen, has_params=not frozen and module.has_params))
            key = dotted(receiver_node) if receiver_node is not None else None
            if key and key in state.env:
                state.env[key] = new
            return new
        if name == LOAD_STATE_DICT:
            return _load_state_dict(interp, state, node, call_node, receiver_node, module_param_groups(module))
        if name == "state_dict":
            # detached tensors sharing the parameters' storage and version counters: writing one in place
            # (weight clipping through state_dict().items()) writes the parameter
            for a in call_node.args:
                interp.eval(state, a.value)
            groups = module_param_groups(module)
            return Val(kind=CONTAINER, grad=NO, groups=groups, elem_kind=TENSOR)
        key = dotted(receiver_node) if receiver_node is not None else None
        if name == "register_buffer" and key and _register_buffer(interp, state, call_node, key):
            return OTHER_VAL
        if name in ("train", "eval", "to", "cuda", "cpu", "float", "double", "half",
                    "apply", "zero_grad", "register_buffer"):
            for a in call_node.args:
                interp.eval(state, a.value)
            return receiver if name not in ("zero_grad", "register_buffer") else OTHER_VAL
        if module.user_class is not None:
            held = interp.ctx.read_attributes(module.user_class).get(name)
            if held is not None and held.kind == MODULE and held.module is not None:
                # model.embedding(ids): a submodule its __init__ built (an instance attribute, which a method
                # of the same name could not shadow), called as ``emb = model.embedding; emb(ids)`` is
                return module_call(interp, state, call_node, held.module, held)
        found = _argument_writes(interp, module, name) if module.user_class is not None else None
        method_params = None
        if module.user_class is not None:
            interp.ctx.read_summary((module.user_class, name))
            method_params = interp.ctx.argument_params.get((module.user_class, name))
        bound = None
        mark = len(interp.renamed)
        saves = frozenset()
        label = f"{module.label or module.user_class}.{name}"
        if found is not None:
            bound = bind(interp, state, call_node, found[0])
            # what the method writes it writes before its own saves see it
            _method_writes_arguments(interp, state, found, name, call_node,
                                     {p: (v, bound.nodes.get(p)) for p, v in bound.vals.items()})
            if method_params is not None:
                saves = _saved_arguments(interp, state, call_node, (module.user_class, name), label,
                                         _passed(bound))
            result = unknown_result(interp, state, call_node, list(bound.vals.values()) + bound.extra,
                                    owner=module)
        elif method_params is not None:
            bound = bind(interp, state, call_node, method_params)
            saves = _saved_arguments(interp, state, call_node, (module.user_class, name), label,
                                     _passed(bound))
            result = unknown_result(interp, state, call_node, list(bound.vals.values()) + bound.extra,
                                    owner=module)
        else:
            result = _unknown_call(interp, state, call_node, None, owner=module)
        result = _holding(interp, result, saves, mark)
        if module.user_class is not None:  # policy.act(obs): a method of this file's module
            _method_writes_receiver(interp, state, module, name, call_node)
            returned = interp.ctx.views_returned.get((module.user_class, name))
            if returned is not None:
                return returned
            result = _summarised_return(interp, state, call_node, result, (module.user_class, name), name)
            if method_params is None:  # (not before: a method returning a view is not waited for)
                interp.ctx.argument_save_asked.add((module.user_class, name))
            saved = _param_saves_of(interp, (module.user_class, name))
            if saved and not interp.unit.nograd and not interp.unit.hooks_depth and not module.frozen:
                # decoder.step(tok, h) returns logits whose op saved the module's weight
                groups = module_param_groups(module) | saved  # the module's, and which of its layers' exactly
                mark = len(interp.renamed)
                label = module.label or module.user_class
                saves = frozenset({_parameter_save(interp, state, call_node, label, groups,
                                                   (module.user_class, name), module_node=receiver_node)})
                parts = None if result.parts is None else tuple(  # logits, h = ...
                    replace(part, hist=interp.catch_up(part, mark).hist | saves) for part in result.parts)
                result = replace(result, hist=interp.catch_up(result, mark).hist | saves, parts=parts)
        return result
    if kind == OPTIMIZER or (name == OPTIMIZER_STEP and _looks_like_optimizer(receiver_node)):
        for a in call_node.args:
            interp.eval(state, a.value)
        if name == OPTIMIZER_STEP:
            groups = receiver.params_of if kind == OPTIMIZER else frozenset({optimizer_scope(receiver_node)})
            label = interp.ctx.code(node.func)
            write = interp.write_site(node, "optimizer_step", label + "()", receiver_node)
            interp.bump(state, groups, write)
        return OTHER_VAL
    if kind == CONTAINER or (name in CONTAINER_MUTATORS and not receiver.kind == TENSOR):
        vals = [interp.eval(state, a.value) for a in call_node.args]
        if name in CONTAINER_MUTATORS:
            key = dotted(receiver_node) if receiver_node is not None else None
            if kind == CONTAINER and key and key in state.env:
                merged = receiver
                if name in ("append", "extend") and receiver.parts is not None and receiver.keys is None \
                        and len(vals) == 1 and (name == "append" or vals[0].parts is not None):
                    # a list built step by step in straight-line code keeps its elements in order (in a
                    # loop, the join at the loop's head forgets them: the lengths differ)
                    added = (vals[0],) if name == "append" else vals[0].parts
                    merged = container_of(list(receiver.parts + added))
                else:
                    for v in vals:
                        merged = _merge(merged, v.element() if name == "extend" else v)
                state.env[key] = merged
            else:
                for v in vals:
                    interp.escape(state, v)
            return OTHER_VAL
        if name in ("pop", "get", "popleft", "__getitem__", "values"):
            return receiver.element() if name != "values" else receiver
        if name == "items":
            return container_of([OTHER_VAL, receiver.element()]) if kind == CONTAINER else Val()
        if kind == CONTAINER:
            return OTHER_VAL if name in ("keys", "index", "count", "clear", "copy") else receiver
    if name == "backward" and receiver.kind != OTHER:
        return _tensor_backward(interp, state, call_node, receiver)
    if name == "apply" and type(receiver_node) in (cst.Name, cst.Attribute):
        cls = dotted(receiver_node)
        if cls in interp.ctx.autograd_functions:
            return interp.ctx.autograd_functions[cls].apply(interp, state, call_node)
    if name == LOAD_STATE_DICT and receiver.kind == UNKNOWN and receiver_node is not None \
            and looks_like_module(dotted(receiver_node) or ""):
        # a module we cannot see (q_net = make_q()): its parameters, as its calls saved them
        groups = frozenset({"params:" + dotted(receiver_node)})
        return _load_state_dict(interp, state, node, call_node, receiver_node, groups)
    if name in PARAMETER_WALKS and receiver.kind != TENSOR:
        for a in call_node.args:
            interp.eval(state, a.value)
        label = (dotted(receiver_node) if receiver_node is not None else None) or "module"
        params = Val(kind=PARAMS, grad=YES, groups=frozenset({"params:" + label}), leaf=True,
                     origin=GradOrigin(receiver_node if receiver_node is not None else call_node, MODULE_PARAMETERS))
        if name == "named_parameters":
            return _named(Val(kind=TENSOR, grad=YES, groups=params.groups, leaf=True, origin=params.origin))
        return params
    if receiver.tensorish:
        return tensor_method(interp, state, node, call_node, receiver, name, receiver_node)
    if kind == PARAMS:
        return receiver
    for a in call_node.args:
        interp.eval(state, a.value)
    return OTHER_VAL if kind == OTHER else Val()


def _name_token(text: str, noise) -> str:
    text = text.lower().split(".")[-1]
    for word in noise:
        text = text.replace(word, "")
    return text.replace("_", "")


def optimizer_scope(node) -> str:
    """The parameter groups an optimizer we cannot see the construction of may update.

    ``optD`` / ``optimizer_d`` / ``d_optim`` update the module named like ``D`` / ``netD``; a plain
    ``optimizer`` may update any module's parameters.
    """
    token = _name_token(dotted(node) or "", ("optimizer", "optim", "opt"))
    return "params~" + token if token else "params:*"


def module_token(label: str) -> str:
    return _name_token(label, ("self.", "model", "net", "module"))


def _named(element: Val) -> Val:
    """``named_parameters()``: iterating gives ``(name, parameter)`` pairs."""
    pair = Val(kind=CONTAINER, grad=YES, groups=element.groups, parts=(OTHER_VAL, element), elem_kind=UNKNOWN)
    return Val(kind=CONTAINER, grad=YES, groups=element.groups, parts=(pair,), elem_kind=CONTAINER)


def _looks_like_optimizer(node) -> bool:
    text = (dotted(node) or "").lower() if node is not None else ""
    last = text.split(".")[-1]
    return any(last == n or last.startswith(n + "_") or last.endswith("_" + n) or last.startswith(n)
               for n in OPTIMIZER_NAMES) and "sched" not in last


def _merge(container: Val, value: Val) -> Val:
    kind = container.elem_kind if container.elem_kind == value.kind or container.hist == frozenset() and \
        container.elem_kind == UNKNOWN and not container.groups else UNKNOWN
    if not container.groups and not container.hist and container.parts in (None, ()):
        kind = value.kind
    return replace(container, groups=container.groups | value.groups, hist=container.hist | value.hist,
                   grad=value.grad if not container.groups else (container.grad if container.grad == value.grad else MAYBE),
                   elem_kind=kind, parts=None)


def frozen_module(key: str) -> Val:
    """The module a value of unknown kind named ``key`` turned out to be, frozen (requires_grad off): its
    parameters are leaves that do not require grad, and its calls save none of them."""
    return Val(kind=MODULE, grad=NO, module=ModuleInfo(None, "params:" + key, label=key, frozen=True,
                                                       has_params=False))


def _load_state_dict(interp: "Interpreter", state: State, node, call_node, receiver_node, groups) -> Val:
    """``module.load_state_dict(...)`` copies the given tensors into the module's parameters (``groups``),
    in place under no_grad: a save of them (target_net(x) before the sync) goes stale."""
    for a in call_node.args:
        interp.eval(state, a.value)
    write = interp.write_site(node, "parameter_update", interp.ctx.code(node.func) + "()", receiver_node)
    interp.bump(state, groups, write)
    return OTHER_VAL


def tensor_method(interp: "Interpreter", state: State, node: cst.Call, call_node: cst.Call, receiver: Val, name: str,
                  receiver_node) -> Val:
    k = interp.k
    if name in NON_TENSOR_METHODS or name in NUMPY_ONLY_METHODS:
        for a in call_node.args:
            interp.eval(state, a.value)
        return OTHER_VAL
    if name == "detach":
        return Val(kind=receiver.kind, grad=NO, groups=receiver.groups)
    if name == "detach_":
        key = dotted(receiver_node) if receiver_node is not None else None
        new = Val(kind=receiver.kind, grad=NO, groups=receiver.groups)
        if key and key in state.env:
            state.env[key] = new
        return new
    if name == "requires_grad_":
        arg = call_node.args[0].value if call_node.args else None
        enabled = not (arg is not None and is_false_or_none(arg))
        leaf = enabled and (receiver.fresh or receiver.leaf or (not receiver.hist and receiver.grad == NO))
        new = replace(receiver, grad=YES if enabled else NO, leaf=leaf, fresh=False,
                      origin=GradOrigin(call_node, REQUIRES_GRAD) if enabled else None)
        key = dotted(receiver_node) if receiver_node is not None else None
        if key and (key in state.env or key.split(".")[0] in state.env):
            # ema.weight.requires_grad_(False): that parameter, read as ema.weight, is frozen from here on
            state.env[key] = new
        if not enabled and key and receiver.kind == UNKNOWN and looks_like_module(key):
            # ema = copy.deepcopy(model); ema.requires_grad_(False): a frozen copy of a module
            state.env[key] = frozen_module(key)
            return state.env[key]
        return new
    if name in NON_DIFFERENTIABLE_METHODS:
        for a in call_node.args:
            interp.eval(state, a.value)
        if name.startswith("new_"):
            # images[0].new_zeros(shape): only a tensor has these, and they make a fresh tensor (iterating it
            # unbinds it: ``for img, pad in zip(images, batched)``)
            return Val(kind=TENSOR, grad=NO, groups=frozenset({interp.new_group(state, node)}), fresh=True)
        return Val(kind=receiver.kind, grad=NO, groups=frozenset({interp.new_group(state, node)}))
    if name in ("to", "type") and _to_default_dtype(interp, call_node):
        # x.to(torch.float32) on a tensor of the default dtype returns x itself, as x.float() does
        for a in call_node.args:
            interp.eval(state, a.value)
        return tensor_method(interp, state, node, cst.Call(func=call_node.func, args=()), receiver, "float",
                             receiver_node)
    qualname = "torch.Tensor." + name
    info = k.lookup(qualname)
    if info is None:
        # methods that mirror a torch function (x.cummax(0) is torch.cummax(x, 0))
        function = k.lookup("torch." + name)
        if function is not None and function.params and function.params[0] in ("input", "self") \
                and function.kind == "function":
            evaluated = [(arg, interp.eval(state, arg.value)) for arg in call_node.args]
            first = cst.Arg(value=receiver_node if receiver_node is not None else cst.Name("self"))
            bound = bind_values([(first, receiver)] + evaluated, function.params)
            function, bound = choose_overload(interp, "torch." + name, function, bound)
            return call_with_info(interp, state, node, "torch." + name, function, bound, method=True)
    if info is None:
        vals = [interp.eval(state, a.value) for a in call_node.args]
        if k.is_inplace_method(name):
            write = interp.write_site(node, "method", name + "()", receiver_node)
            args = {"self": receiver}
            for i, v in enumerate(vals):
                args[f"arg{i}"] = v
            return interp.inplace_write(state, receiver, write, args, None, node, qualname)
        if receiver.kind == UNKNOWN:
            # not a tensor method: an arbitrary object's method
            return unknown_result(interp, state, node, [receiver] + vals)
        return unknown_result(interp, state, node, [receiver] + vals)
    bound = bind(interp, state, call_node, info.params, info.kwonly, receiver=receiver, receiver_node=receiver_node)
    info, bound = choose_overload(interp, qualname, info, bound, receiver, receiver_node)
    bound = _collect_varargs(info, bound)
    return call_with_info(interp, state, node, qualname, info, bound, method=True)


def _tensor_backward(interp: "Interpreter", state: State, node: cst.Call, receiver: Val) -> Val:
    retain = keyword(node, "retain_graph")
    create = keyword(node, "create_graph")
    positional = [a for a in node.args if a.keyword is None]
    for a in node.args:
        interp.eval(state, a.value)
    keep = (retain is not None and not is_false_or_none(retain.value)) or (
        create is not None and not is_false_or_none(create.value)) or len(positional) >= 2
    interp.reach(state, receiver, free=not keep, by=("backward", node))
    return OTHER_VAL


def _backward_call(interp: "Interpreter", state: State, node: cst.Call, qualname: str) -> Val:
    vals = [interp.eval(state, a.value) for a in node.args if a.keyword is None]
    retain = keyword(node, "retain_graph")
    create = keyword(node, "create_graph")
    outputs = keyword(node, "outputs") or keyword(node, "tensors")
    target = vals[0] if vals else (interp.eval(state, outputs.value) if outputs is not None else Val())
    keep = any(a is not None and not is_false_or_none(a.value) for a in (retain, create))
    interp.reach(state, target, free=not keep, by=("backward", node))
    if qualname == BACKWARD_FUNCTION:
        grad = MAYBE if create is not None and not is_false_or_none(create.value) else NO
        return Val(kind=CONTAINER, grad=grad, elem_kind=TENSOR, groups=frozenset({interp.new_group(state, node)}),
                   hist=target.hist if grad else frozenset())
    return OTHER_VAL


# ============================================================================== modules
def module_call(interp: "Interpreter", state: State, node: cst.Call, module: ModuleInfo, callee: Optional[Val],
                vals: Optional[List[Val]] = None) -> Val:
    if vals is None:
        vals = None if module.sequence or module.qualname else [interp.eval(state, a.value) for a in node.args]
    if module.sequence:
        if vals is None:
            vals = [interp.eval(state, a.value) for a in node.args]
        return _apply_sequence(interp, state, node, module, vals[0] if vals else Val())
    if module.qualname and interp.k.lookup(module.qualname) is not None and vals is None:
        info = interp.k.lookup(module.qualname)
        bound = bind(interp, state, node, info.params, info.kwonly)
        return _apply_known_module(interp, state, node, module, info, bound, write_node=node)
    if vals is None:
        vals = [interp.eval(state, a.value) for a in node.args]
    return _apply_module(interp, state, node, module, vals)


def _apply_sequence(interp, state, node, module: ModuleInfo, current: Val) -> Val:
    """An nn.Sequential called on ``current``: each element in turn, its saves and writes reported at the
    element's constructor (sites of this call's own: see ModuleContext.site)."""
    ctx = interp.ctx
    outer = ctx.sequence_call
    if outer is None:
        ctx.sequence_call = id(node)
    try:
        for element in module.sequence:
            element_node = ctx.site_nodes.get(element.site, node) if element.site >= 0 else node
            current = _apply_module(interp, state, element_node, element, [current], sequence_call=True)
    finally:
        ctx.sequence_call = outer
    return current


def _apply_module(interp, state, node, module: ModuleInfo, vals: List[Val], sequence_call=False) -> Val:
    info = interp.k.lookup(module.qualname) if module.qualname else None
    if info is not None:
        params = info.params
        bound_vals = {p: v for p, v in zip(params, vals)}
        nodes = {}
        bound = Bound(bound_vals, nodes, {}, list(vals[len(params):]), frozenset(bound_vals), [])
        return _apply_known_module(interp, state, node, module, info, bound, write_node=node,
                                   sequence_call=sequence_call)
    if module.sequence:
        return _apply_sequence(interp, state, node, module, vals[0] if vals else Val())
    if module.user_class in interp.ctx.renormalising_classes and type(node) is cst.Call:
        # a forward that looks rows up in a max_norm embedding renormalises them first: a weight an earlier
        # forward saved goes stale (before this call's own saves, which see the weight as written)
        _method_writes_receiver(interp, state, module, "forward", node, only_renormalising=True)
    found = _argument_writes(interp, module, "forward") if module.user_class is not None else None
    if found is not None and type(node) is cst.Call:
        # a forward that writes what it is passed (x += self.pos): the caller's tensor, before this call's
        # own saves (which see it as written)
        bound = bind_arguments(found[0], node, vals)
        if bound is not None:
            _method_writes_arguments(interp, state, found, "forward", node, bound)
    # a class of this file whose forward was analysed: it saves what that analysis found it saves of its
    # parameters (as a helper function does), not every positional input
    forward = (module.user_class, "forward") if module.user_class is not None else None
    analysed = None
    if forward is not None and type(node) is cst.Call:
        interp.ctx.read_summary(forward)
        params = interp.ctx.argument_params.get(forward) if forward in interp.ctx.argument_saves else None
        analysed = bind_arguments(params, node, vals) if params is not None else None
    # a module we cannot see into: it may save its parameters for its inputs' gradients
    recording = not interp.unit.nograd and not interp.unit.hooks_depth
    label = module.label or "module"
    call_text = node
    mark = len(interp.renamed)  # the saves below may rename older ones the inputs' histories name
    new = set()
    input_save = None
    if module.has_params and not module.frozen and recording:
        # a layer after the first saves its weight for its input's gradient, and that input requires
        # grad through the first layer's parameters: saved whether or not the module's input requires grad
        if any(v.tensorish or _holds_tensors(v) for v in vals):
            groups, origin = frozenset({module.param_group}), None
            if module.user_class:
                origin = (module.user_class, "forward")
                groups |= _param_saves_of(interp, origin) or frozenset()
            new.add(_parameter_save(interp, state, node, label, groups, origin))
        # its first layer (Linear, Conv, ...) keeps its input to compute its weight's gradient: what it is
        # passed positionally (keywords are masks, caches and options more often than not)
        args = node.args if type(node) is cst.Call else ()
        for index, val in enumerate(vals if analysed is None else ()):
            if index < len(args) and (args[index].keyword is not None or args[index].star):
                continue
            if val.tensorish and val.groups and val.kind != CONTAINER:
                sid = interp.ctx.site(node, f"save:input{index}")
                text = args[index].value if index < len(args) else "its input"
                site = SaveSite(sid, call_text, label, text, "input", "input", GradOrigin(node, MODULE_PARAMETERS))
                record = interp.create_record(state, sid, site, val.groups)
                new.add(record)
                if index == 0:
                    input_save = record
    if analysed is not None and recording:
        new |= _saved_arguments(interp, state, node, forward, f"{label}.forward", analysed)
    # the result is allocated after the inputs are saved: in a loop (``h = layer(h)``) the input is the
    # tensor this site allocated last time, which the allocation moves to the site's older group, saves
    # included, so a write to the new result is not a write to the saved input
    result = unknown_result(interp, state, node, vals, module if module.has_params else None)
    if new:
        result = replace(result, hist=interp.catch_up(result, mark).hist | new)
    if module.user_class and recording:
        result = _summarised_return(interp, state, node, result, (module.user_class, "forward"), f"{label}.forward")
    if module.may_pass_input and vals and vals[0].tensorish:
        # on the nn.Identity path the result is the input itself: writing it writes the caller's tensor, and
        # a view torch refuses to write stays one (q, k, v = qkv.unbind(0); q = self.q_norm(q); q *= s)
        # ``self.norm = norm_layer(c) if norm_layer else nn.Identity()``: the save of the input on the other
        # path and the input handed back are never both true, so a write of the result spares that save
        given = vals[0]
        result = replace(result.join(given), multiview=given.multiview, multiview_from=given.multiview_from,
                         nograd_view=given.nograd_view,
                         nograd_fill_view=given.nograd_fill_view,
                         spares=frozenset({input_save}) if input_save is not None else frozenset())
    return result


def _holds_tensors(val: Val) -> bool:
    """A list or tuple that may hold tensors: a centralised critic called on every agent's observations
    and actions (``critic(o, u)``, lists it concatenates) computes with its parameters as on a tensor."""
    if val.kind != CONTAINER or val.keys is not None:
        return False
    if val.parts:
        return any(part.tensorish for part in val.parts)
    return val.elem_kind in (TENSOR, UNKNOWN)


def _parameter_save(interp, state: State, node, label: str, groups: FrozenSet[str], origin=None,
                    by_method: bool = False, module_node=None):
    """A call of a module saving its parameters (``groups``) for its input's gradient, or (``by_method``) of
    a method of the caller's own class whose ops saved some; ``origin``: the (class, method) of this file
    whose own ops made those saves, where a fix can hand them a copy."""
    sid = interp.ctx.site(node, "save:params")
    if by_method:
        site = SaveSite(sid, node, label, "the parameters of this module", "input", "method parameters",
                        GradOrigin(module_node if module_node is not None else node, MODULE_PARAMETERS))
    else:
        site = SaveSite(sid, node, label, f"the parameters of {label}", "input", "parameters",
                        GradOrigin(module_node if module_node is not None else node, MODULE_PARAMETERS))
    if origin is not None:
        interp.ctx.param_save_origin[sid] = origin
    return interp.create_record(state, sid, site, groups)


def _param_saves_of(interp, key) -> Optional[FrozenSet[str]]:
    """The parameter groups what ``key`` (class, method) returns was computed from saves of; a read before
    the method was analysed is noted, so that the module is analysed once more (interpret_module)."""
    interp.ctx.read_summary(key)
    saved = interp.ctx.param_save_returns.get(key)
    if saved is None:
        interp.ctx.param_save_asked.add(key)
    return saved


def _summarised_return(interp, state, node, result: Val, key, label: str) -> Val:
    """What a call of a function analysed in this file (``key``: class or None, name) returns, given its
    return summary: a tensor its own ops saved, or a tuple some of whose elements are."""
    if interp.unit.nograd or result.grad == NO:
        return result
    interp.ctx.read_summary(key)
    if interp.ctx.return_summaries.get(key):
        return _saved_return(interp, state, node, result, label)
    if interp.ctx.return_elements.get(key):
        # a list of tensors the callee's ops saved: every element the caller takes out of it is one
        group = interp.new_group(state, node, "element")
        element = Val(kind=UNKNOWN, grad=result.grad, groups=frozenset({group}), hist=result.hist)
        sid = interp.ctx.site(node, "save:returned:element")
        mark = len(interp.renamed)
        site = SaveSite(sid, node, label, "", "result", "result", result.origin)
        rid = interp.create_record(state, sid, site, element.groups)
        element = replace(element, hist=interp.catch_up(element, mark).hist | {rid})
        return replace(container_of([element]), parts=None)
    parts = interp.ctx.return_parts.get(key)
    if not parts:
        return result
    elements, saves = [], frozenset()
    mark = len(interp.renamed)
    for index, saved in enumerate(parts):
        element = Val(kind=UNKNOWN, grad=result.grad, groups=frozenset({interp.new_group(state, node, f"part{index}")}),
                      hist=result.hist)
        if saved:
            sid = interp.ctx.site(node, f"save:returned:{index}")
            site = SaveSite(sid, node, label, "", "result", "result", result.origin)
            saves |= {interp.create_record(state, sid, site, element.groups)}
        elements.append(element)
    # the saves are the history of every element: a backward from any of them may need them
    returned = container_of([replace(element, hist=interp.catch_up(element, mark).hist | saves)
                             for element in elements])
    keys = interp.ctx.return_keys.get(key)
    return replace(returned, keys=keys) if keys is not None and len(keys) == len(elements) else returned


def _saved_return(interp, state, node, result: Val, label: str) -> Val:
    """The callee (analysed in this file) returns a tensor its own ops saved: the caller holds it."""
    sid = interp.ctx.site(node, "save:returned")
    site = SaveSite(sid, node, label, "", "result", "result", result.origin)
    mark = len(interp.renamed)
    rid = interp.create_record(state, sid, site, result.groups)
    return replace(result, hist=interp.catch_up(result, mark).hist | {rid})


def _apply_known_module(interp, state, node, module: ModuleInfo, info: OpInfo, bound: Bound, write_node,
                        sequence_call=False) -> Val:
    if info.name == "torch.nn.Identity" and "input" in bound.vals:
        # returns its input itself: an unbind output stays one (q = self.q_norm(q); q.mul_(s) is refused)
        return bound.vals["input"]
    if module.renormalises and info.writes_given is not None:
        parameter = info.writes_given[1].split(":", 1)[-1]
        label = interp.ctx.code(node.func) if type(node) is cst.Call else module.label
        weight = Val(kind=TENSOR, grad=YES, groups=frozenset({module.param_group}), leaf=True)
        _renormalise(interp, state, node, weight, f"{label}.{parameter}",
                     interp.ctx.module_given_args.get(module.site))
    if sequence_call and module.inplace and info.inplace is not None:
        # reported at the element's constructor inside nn.Sequential(...)
        target = bound.vals.get(info.inplace.modifies) or (list(bound.vals.values())[0] if bound.vals else Val())
        ctor = interp.ctx.module_inplace_args.get(module.site)
        write = interp.write_site(node, "module_ctor", module.label, None,
                                  kwarg_node=ctor[1] if ctor else None)
        write = replace(write, target_text="its input")
        interp.ctx.write_sites[write.site] = write
        return interp.inplace_write(state, target, write, bound.vals, info.inplace, node, info.name, module)
    return call_with_info(interp, state, node if type(node) is cst.Call else node, info.name, info, bound,
                          method=False, module=module, write_node=write_node)


# ============================================================================== attributes, subscripts


def _own_optimizer_attribute(interp: "Interpreter", key: Optional[str]) -> bool:
    """Is ``key`` (``self.params``, ``self.param_groups``) an attribute of ``self`` read in a method of an
    optimizer class of this file?"""
    unit = interp.unit
    return unit.class_name in interp.ctx.optimizer_classes and key is not None and \
        key.count(".") == 1 and key.split(".")[0] == unit.self_name


def attribute(interp: "Interpreter", state: State, node: cst.Attribute) -> Val:
    key = dotted(node)
    attr = node.attr.value
    if attr == "params" and interp.unit.function_name != "__init__" and _own_optimizer_attribute(interp, key):
        # an optimizer's own list of the tensors it steps (self.params = list(params)): leaves that
        # require grad
        return Val(kind=PARAMS, grad=YES, groups=frozenset({"params:*"}), leaf=True, origin=GradOrigin(node, PARAMETER))
    if key is not None and key in state.env:
        return state.env[key]
    qualname = interp.unit.imports.resolve(node)
    if qualname is not None:
        return torch_callable(interp, qualname)
    base = interp.eval(state, node.value)
    if attr == "param_groups" and (base.kind == OPTIMIZER or _own_optimizer_attribute(interp, key)):
        # dicts whose "params" are the tensors the optimizer steps (any parameters, in its own methods):
        # leaves that require grad
        steps = base.params_of if base.kind == OPTIMIZER else frozenset({"params:*"})
        return container_of([container_of([Val(kind=PARAMS, grad=YES, groups=steps, leaf=True)])])
    if base.kind in (UNKNOWN, OTHER) and not base.hist:
        # config.vocab_size, self.state.global_step: an attribute named like a count is a Python int
        if looks_like_count(attr):
            return OTHER_VAL
        if looks_like_integer_tensor(attr):
            return Val(kind=UNKNOWN, grad=NO, groups=frozenset({"attr:" + (key or attr)}))
    if key is not None and key.split(".")[0] == interp.unit.self_name and key.count(".") == 1:
        layer = interp.ctx.torch_layer_subclasses.get(interp.unit.class_name or "")
        if layer is not None and _is_parameter_name(attr):
            # a parameter the torch layer this class extends creates in its own __init__
            return Val(kind=TENSOR, grad=YES, groups=frozenset({f"params:{interp.unit.class_name}.{attr}"}),
                       leaf=True, origin=GradOrigin(node, PARAMETER))
        return Val(kind=UNKNOWN, grad=guessed_grad(interp), groups=frozenset({"attr:" + key}))
    if base.kind == MODULE and base.module is not None:
        return module_attribute(interp, base.module, attr, key or attr)
    if base.kind == UNKNOWN and _is_parameter_name(attr) and not base.hist:
        # layer.weight of a module we cannot see: an nn.Parameter, a leaf that requires grad
        return Val(kind=TENSOR, grad=YES, groups=frozenset({"params:" + (dotted(node.value) or "?")}), leaf=True,
                   origin=GradOrigin(node, PARAMETER))
    if base.tensorish:
        if attr in VIEW_ATTRIBUTES:
            return replace(base, fresh=False, strided=base.strided or attr in STRIDED_VIEWS)
        if attr == "data":
            return Val(kind=base.kind, grad=NO, groups=frozenset({interp.new_group(state, node, "data")}))
        if attr == "grad":
            return Val(kind=base.kind, grad=NO, groups=frozenset({"grad:" + (key or interp.new_group(state, node))}))
        if attr in NON_TENSOR_ATTRIBUTES:
            return OTHER_VAL
        if base.kind == TENSOR:
            return OTHER_VAL
        return Val(kind=UNKNOWN, grad=base.grad, hist=base.hist, groups=frozenset({"attr:" + (key or attr)}),
                   origin=base.origin)
    if base.kind == CONTAINER:
        if base.parts and attr in ("values", "indices") and len(base.parts) >= 2:
            return base.parts[0 if attr == "values" else 1]
        return Val()
    return OTHER_VAL if base.kind == OTHER and key is None else Val(kind=UNKNOWN, grad=guessed_grad(interp),
                                                                     groups=frozenset({"attr:" + (key or attr)}))


def module_attribute(interp: "Interpreter", module: ModuleInfo, attr: str, label: str) -> Val:
    """``module.<attr>`` (``label``: how the code names it): a parameter, an attribute its class's
    ``__init__`` sets, or else most likely a submodule."""
    # what this file's class sets first: ``self.weight = nn.Buffer(torch.ones(n))`` (a frozen batch norm's)
    # is a buffer, whatever its name
    attrs = interp.ctx.read_attributes(module.user_class) if module.user_class is not None else {}
    if attr in attrs and _is_parameter_name(attr) and attrs[attr].kind == TENSOR and attrs[attr].grad == NO:
        return attrs[attr]
    if _is_parameter_name(attr):
        if module.frozen:
            return Val(kind=TENSOR, grad=NO, groups=frozenset({module.param_group}))
        return Val(kind=TENSOR, grad=YES, groups=frozenset({module.param_group}), leaf=True,
                   origin=GradOrigin(label, PARAMETER))
    if attr in attrs:
        return attrs[attr]
    # model.encoder: most attributes of a module that are used further are submodules
    return Val(kind=MODULE, grad=NO, module=ModuleInfo(None, "params:" + label, label=label, frozen=module.frozen))


def module_param_groups(module: ModuleInfo) -> FrozenSet[str]:
    """A module's parameters, its submodules' included (``nn.Sequential(...).parameters()``)."""
    groups = {module.param_group}
    for element in module.sequence:
        groups |= module_param_groups(element)
    return frozenset(groups)


def _is_parameter_name(attr: str) -> bool:
    return attr in LAYER_PARAMETERS or attr.endswith("_weight") or attr.endswith("_bias")


def is_mapping_key(node: cst.Subscript) -> bool:
    """``d["pair"]``, ``td["next", "obs"]``, ``td[("tokens", "prompt")]``: a string cannot index a tensor
    (not even among other indices), so the subscripted value is a mapping (a dict, a TensorDict)."""
    for element in node.slice:
        index = element.slice
        if type(index) is not cst.Index:
            continue
        value = index.value
        if type(value) in _STRING_NODES:
            return True
        if type(value) is cst.Tuple and any(type(e.value) in _STRING_NODES for e in value.elements):
            return True
    return False


_STRING_NODES = frozenset({cst.SimpleString, cst.ConcatenatedString, cst.FormattedString})


_DEFAULT_DTYPES = frozenset({"torch.float32", "torch.float"})


def _to_default_dtype(interp: "Interpreter", call: cst.Call) -> bool:
    """``x.to(torch.float32)``, ``x.to(dtype=torch.float)``, ``x.type(torch.float32)``: a conversion to the
    default dtype, and nothing else (no device, no ``copy=True``)."""
    if len(call.args) != 1 or call.args[0].star:
        return False
    arg = call.args[0]
    if arg.keyword is not None and arg.keyword.value != "dtype":
        return False
    return interp.unit.imports.resolve(arg.value) in _DEFAULT_DTYPES


def _string_value(interp: "Interpreter", node) -> Optional[str]:
    """A string literal's value; for a parameter of the function being analysed, its string default (what
    the code does when its callers pass none, as for ``act_layer=nn.ReLU``)."""
    if type(node) is cst.SimpleString:
        return string_key(node)
    default = parameter_default(interp, node)
    return string_key(default) if default is not None else None


def parameter_default(interp: "Interpreter", node) -> Optional[cst.BaseExpression]:
    """The default of the parameter ``node`` names, of the function being analysed (None: no such
    parameter, or no default)."""
    function = interp.ctx.current_unit
    if type(node) is not cst.Name or type(function) is not cst.FunctionDef:
        return None
    params = function.params
    for param in list(params.posonly_params) + list(params.params) + list(params.kwonly_params):
        if param.name.value == node.value:
            return param.default
    return None


def _register_buffer(interp: "Interpreter", state: State, call: cst.Call, owner: str) -> bool:
    """``self.register_buffer("W", t)``: ``self.W`` is ``t`` from now on (a buffer, not a parameter: it
    requires grad only if ``t`` does). False (nothing bound) unless the name is a string literal."""
    args = call.args
    if len(args) < 2 or args[0].keyword or args[1].keyword or args[0].star or args[1].star:
        return False
    attr = string_key(args[0].value)
    if attr is None or not attr.isidentifier():
        return False
    value = interp.eval(state, args[1].value)
    for extra in args[2:]:
        interp.eval(state, extra.value)
    state.env[owner + "." + attr] = value
    return True


def passed_constants(node: cst.Call, params: List[str], recursive: bool = False) -> Dict[str, object]:
    """What a call passes each parameter: the string literal or ``True``/``False``, None when it passes
    nothing, DYNAMIC for anything else (inplace_lint.analysis.dataflow.decide_on_constants decides ``if``
    tests with them). A ``recursive`` call passing a parameter its own value (``convert(child, flag=flag)``)
    leaves it out: it passes on what its own callers passed."""
    out: Dict[str, object] = dict.fromkeys(params)
    for index, arg in enumerate(node.args):
        if arg.star:
            return {param: DYNAMIC for param in params}
        name = arg.keyword.value if arg.keyword is not None else (params[index] if index < len(params) else None)
        if name in out:
            if recursive and type(arg.value) is cst.Name and arg.value.value == name:
                del out[name]
                continue
            key = constant_key(arg.value)
            out[name] = key if key is not None else DYNAMIC
    return out


def constant_key(node) -> Optional[object]:
    """The value of a string literal, ``True`` or ``False``, else None."""
    if type(node) is cst.Name and node.value in ("True", "False"):
        return node.value == "True"
    return string_key(node)


def string_key(node) -> Optional[str]:
    """The value of a plain string literal (a dict key), else None."""
    if type(node) is cst.SimpleString:
        try:
            value = node.evaluated_value
        except Exception:  # a literal LibCST cannot evaluate: no key
            return None
        return value if isinstance(value, str) else None
    return None


def subscript(interp: "Interpreter", state: State, node: cst.Subscript) -> Val:
    base = interp.eval(state, node.value)
    indices = interp._eval_slices(state, node)
    if base.keys is not None and is_mapping_key(node):
        item = base.item(string_key(getattr(node.slice[0].slice, "value", None)) or "")
        if item is not None:
            return item
    if is_mapping_key(node) and base.kind != CONTAINER:
        key = dotted(node.value) or "?"
        literal = getattr(node.slice[0].slice, "value", None)
        item = f"{key}[{literal.value if type(literal) is cst.SimpleString else '?'}]"
        grad = NO if base.kind == OTHER else base.grad
        return Val(kind=UNKNOWN if base.kind != OTHER else OTHER, grad=grad, groups=frozenset({"item:" + item}),
                   hist=base.hist if key else frozenset())
    if base.kind == CONTAINER:
        if base.parts is not None and len(node.slice) == 1 and type(node.slice[0].slice) is cst.Index:
            index_node = node.slice[0].slice.value
            index = _int_literal(index_node)
            if index is not None and -len(base.parts) <= index < len(base.parts):
                return base.parts[index]
        return base.element()
    if base.kind == PARAMS:
        return base.element()
    if base.kind == MODULE and base.module is not None and base.module.sequence and len(node.slice) == 1 \
            and type(node.slice[0].slice) is cst.Index:
        # model[0] of an nn.Sequential: that layer, whose parameters its calls saved
        index = _int_literal(node.slice[0].slice.value)
        if index is not None and -len(base.module.sequence) <= index < len(base.module.sequence):
            return Val(kind=MODULE, grad=NO, module=base.module.sequence[index])
    if not base.tensorish:
        return OTHER_VAL if base.kind == OTHER else Val()
    if _opaque(base) and len(node.slice) == 1 and type(node.slice[0].slice) is cst.Index:
        index = _int_literal(node.slice[0].slice.value)
        if index is not None:  # outputs[0] of a call we cannot see: a tuple element, not a view
            return unpack(base, index)
    # an index that may be a tensor (a mask, an index tensor) gathers a copy; a number or slice views
    advanced = any(v.kind in (TENSOR, UNKNOWN) for v in indices) or any(
        type(e.slice) is cst.Index and type(e.slice.value) in (cst.List, cst.ListComp)
        for e in node.slice
    )
    if advanced:
        hist = base.hist
        if base.grad != NO and not interp.unit.nograd and not interp.unit.hooks_depth:
            # h[idx] keeps an index tensor for backward (to scatter the gradient back): writing idx in place
            # afterwards (``idx += 1``) makes backward raise. Only a value known to be a tensor: an
            # unknown one may be a Python int (``h[pos]; pos += 1``)
            elements = [e for e in node.slice if type(e.slice) is cst.Index]
            for element, index in zip(elements, indices):
                if index.kind == TENSOR:
                    sid = interp.ctx.site(element, "save:index")
                    site = SaveSite(sid, node, "torch.Tensor.__getitem__", element.slice.value, "input", "indices",
                                    base.origin)
                    hist = hist | {interp.create_record(state, sid, site, index.groups)}
        return Val(kind=base.kind, grad=base.grad, groups=frozenset({interp.new_group(state, node)}), hist=hist,
                   origin=base.origin)
    # a view made under no_grad requires no grad itself: what it takes part in afterwards saves nothing
    return replace(base, fresh=False, parts=None, nograd_view=_nograd_view_of(interp, base),
                   multiview_from=_subscripted_multiview(base, node),
                   nograd_fill_view=_nograd_fill_view_of(interp, base, several_dims=len(node.slice) > 1),
                   grad=NO if interp.unit.nograd and base.grad != NO else base.grad,
                   strided=base.strided or _strided_index(node))


def _subscripted_multiview(base: Val, node: cst.Subscript) -> Optional[MultiView]:
    """``outputs[2]`` of a split/chunk/unbind's result is its output 2, ``outputs[1:]`` some of its outputs;
    a subscript of one output is a view of it."""
    origin = base.multiview_from
    if not base.multiview or origin is None:
        return None
    if origin.stage != OUTPUTS:
        return origin._replace(stage=VIEW)
    if len(node.slice) == 1 and type(node.slice[0].slice) is cst.Index:
        index = _int_literal(node.slice[0].slice.value)
        known = index is not None and index >= 0 and origin.output >= 0
        return origin._replace(output=origin.output + index if known else -1, stage=OUTPUT)
    return origin._replace(output=-1)


def _strided_index(node: cst.Subscript) -> bool:
    """``x[:, 0]``, ``heads[:, -L:, 1]``, ``x[..., :d]``: an index or a partial slice after a whole
    dimension kept is a strided view (``.contiguous()`` and ``.reshape()`` copy it, as long as the dimensions
    kept are not all of size 1). ``x[0]`` and ``x[1:3]`` stay contiguous."""
    kept = False
    for element in node.slice:
        part = element.slice
        if type(part) is cst.Slice:
            whole = part.lower is None and part.upper is None and part.step is None
            if whole:
                kept = True
            elif kept:
                return True
        elif type(part.value) is cst.Ellipsis:
            kept = True
        elif type(part.value) is cst.Name and part.value.value == "None":
            continue
        elif kept:
            return True
    return False


def _int_literal(node) -> Optional[int]:
    if type(node) is cst.Integer:
        try:
            return int(node.value, 0)
        except ValueError:
            return None
    if type(node) is cst.UnaryOperation and type(node.operator) is cst.Minus:
        inner = _int_literal(node.expression)
        return -inner if inner is not None else None
    return None


# ============================================================================== iteration & containers
def container_of(vals: List[Val]) -> Val:
    groups = frozenset()
    hist = frozenset()
    grad = NO
    kinds = set()
    for v in vals:
        groups |= v.groups
        hist |= v.hist
        kinds.add(v.kind)
        if v.grad == YES and v.kind != OTHER:
            grad = YES
        elif v.grad == MAYBE and grad == NO and v.kind != OTHER:
            grad = MAYBE
    elem_kind = kinds.pop() if len(kinds) == 1 else UNKNOWN
    # a list of views made under no_grad (``[w[i] for i in rows]`` in a no_grad block): so is each element
    nograd_view = bool(vals) and all(v.nograd_view for v in vals)
    # a list of leaves that require grad (``[p for p in model.parameters()]``): so is each element, also once
    # the parts are forgotten (a comprehension, a helper's parameter)
    leaf = bool(vals) and all(v.leaf for v in vals)
    # a table of one torch callable ({"relu": partial(nn.ReLU, inplace=True)}): so is what it hands out
    held = vals[0] if vals and vals[0].callee is not None and all(
        v.callee == vals[0].callee and v.bound is vals[0].bound for v in vals) else OTHER_VAL
    return Val(kind=CONTAINER, grad=grad, groups=groups, hist=hist, elem_kind=elem_kind, parts=tuple(vals),
               nograd_view=nograd_view, leaf=leaf, callee=held.callee, bound=held.bound,
               origin=origin_of(v for v in vals if v.kind != OTHER))


def _opaque(value: Val) -> bool:
    """Returned by a call we cannot see (or an element of a module's tuple output): maybe a tuple itself."""
    return value.opaque and value.kind in (UNKNOWN, TENSOR) and bool(value.groups)


def unpack(value: Val, index: int = 0, node=None, starred: bool = False, after_starred: bool = False) -> Val:
    """Element ``index`` of ``a, b = value``: a view of a tensor (``chunk``/``unbind``), or, for what a
    call we cannot see returned, a distinct tensor of a tuple (``q, k, v = layer(...)``). ``node``: the
    value's expression; ``starred``: the target is ``*rest``; ``after_starred``: it comes after one."""
    position = None if starred else -1 if after_starred else index
    if _opaque(value):
        return replace(value, groups=frozenset(f"{g}.{index}" for g in value.groups), parts=None, fresh=False,
                       opaque=False)
    if value.kind == TENSOR:  # a, b = t unbinds t: views torch will not let you modify in place
        return replace(value, parts=None, fresh=False, multiview=True,
                       multiview_from=_element_multiview(value, position, node))
    if value.kind == UNKNOWN:
        if any(g.startswith("param:") for g in value.groups):
            # ``h, c = state``: a parameter unpacked is a tuple far more often than a tensor (whose rows
            # torch would not let be written in place anyway): its elements are distinct tensors
            return replace(value, groups=frozenset(f"{g}.{index}" if g.startswith("param:") else g
                                                   for g in value.groups), parts=None, fresh=False)
        return replace(value, parts=None, fresh=False, multiview_from=_element_multiview(
            value, position, node) if value.multiview else None)
    return value.element()


def _element_multiview(value: Val, position: Optional[int], node) -> Optional[MultiView]:
    """The op behind an element of ``value`` unpacked or iterated (at ``position``; -1: not known; None:
    several, a starred target): an output of the split/chunk/unbind that made ``value``, or else a row of
    the tensor ``value``, which unpacking unbinds."""
    origin = value.multiview_from
    if value.multiview and (origin is None or origin.stage == OUTPUTS):
        if origin is None or position is None:
            return origin._replace(output=-1) if origin is not None else None
        known = origin.output >= 0 and position >= 0
        return origin._replace(output=origin.output + position if known else -1, stage=OUTPUT)
    if position is None:
        return MultiView("torch.Tensor.__iter__", node, None, -1)
    return MultiView("torch.Tensor.__iter__", node, None, position, OUTPUT)


def iterate(interp: "Interpreter", state: State, node) -> Val:
    """The value a ``for`` target takes on each iteration over ``node``."""
    if type(node) is cst.Call and type(node.func) is cst.Name and node.func.value not in state.env:
        name = node.func.value
        if name == "range":
            for a in node.args:
                interp.eval(state, a.value)
            return OTHER_VAL
        if name == "enumerate" and node.args:
            inner = iterate(interp, state, node.args[0].value)
            return Val(kind=CONTAINER, grad=NO, parts=(OTHER_VAL, inner), groups=inner.groups, hist=inner.hist)
        if name == "zip":
            parts = tuple(iterate(interp, state, a.value) for a in node.args if not a.keyword)
            return container_of(list(parts))
        if name in ("reversed", "sorted", "list", "tuple") and node.args:
            return iterate(interp, state, node.args[0].value)
    if type(node) is cst.Call and type(node.func) is cst.Attribute and node.func.attr.value == "items":
        receiver = interp.eval(state, node.func.value)
        return Val(kind=CONTAINER, grad=NO, parts=(OTHER_VAL, receiver.element()))
    iterable = interp.eval(state, node)
    if iterable.kind == OTHER:
        return OTHER_VAL
    if iterable.kind in (CONTAINER, PARAMS):
        return iterable.element()
    if iterable.kind == MODULE:
        return Val(kind=MODULE, grad=NO, module=iterable.module)
    if iterable.kind == TENSOR:  # iterating a tensor unbinds it
        return replace(iterable, parts=None, fresh=False, multiview=True,
                       multiview_from=_element_multiview(iterable, -1, node))
    if iterable.multiview:  # the outputs of split/chunk/unbind of a value of unknown kind (a layer's output)
        return replace(iterable, parts=None, fresh=False,
                       multiview_from=_element_multiview(iterable, -1, node))
    return Val(kind=UNKNOWN, grad=iterable.grad, groups=iterable.groups | {interp.new_group(state, node, "iter")},
               origin=iterable.origin,
               hist=iterable.hist)


def comprehension(interp: "Interpreter", state: State, node) -> Val:
    inner = state.copy()
    for_in = node.for_in
    while for_in is not None:
        element = iterate(interp, inner, for_in.iter)
        interp.assign(inner, for_in.target, element, None)
        for condition in for_in.ifs:
            interp.eval(inner, condition.test)
        for_in = for_in.inner_for_in
    if type(node) is cst.DictComp:
        interp.eval(inner, node.key)
        value = interp.eval(inner, node.value)
    else:
        value = interp.eval(inner, node.elt)
    # writes inside the comprehension (rare) still count
    state.records.update(inner.records)
    state.escaped = state.escaped | inner.escaped
    result = container_of([value])
    # nn.ModuleList(nn.Linear(d, d) for _ in range(n)): each element is that module
    return replace(result, parts=None, module=value.module if value.kind == MODULE else None)


# ============================================================================== context managers
def grad_mode(interp: "Interpreter", node) -> Optional[str]:
    if not type(node) is cst.Call:
        qualname = interp.unit.imports.resolve(node)
        return "nograd" if qualname in NOGRAD_CONTEXTS else None
    qualname = interp.unit.imports.resolve(node.func)
    if qualname is None:
        return None
    if qualname in NOGRAD_CONTEXTS:
        if qualname.endswith("inference_mode") and node.args and is_false_or_none(node.args[0].value):
            return None
        return "nograd"
    if qualname in ENABLE_GRAD:
        return "enable_grad"
    if qualname in SET_GRAD:
        if node.args and type(node.args[0].value) is cst.Name:
            if node.args[0].value.value == "False":
                return "nograd"
            if node.args[0].value.value == "True":
                return "enable_grad"
        return None
    if qualname in SAVED_TENSOR_HOOKS and not qualname.endswith("disable_saved_tensors_hooks"):
        return "hooks"
    return None


# ============================================================================== names & annotations
def torch_callable(interp: "Interpreter", qualname: Optional[str]) -> Val:
    """The value of an imported name: not a tensor; a torch op or module class the table knows keeps its
    name, so that calling it later (``act = nn.ReLU; act(inplace=True)``) is that op or module."""
    if qualname is not None and qualname.startswith("torch.") and interp.k.lookup(qualname) is not None:
        return Val(kind=OTHER, grad=NO, callee=qualname)
    return OTHER_VAL


def global_value(interp: "Interpreter", name: str, node) -> Val:
    qualname = interp.unit.imports.resolve(node)
    if qualname is not None:
        return torch_callable(interp, qualname)
    globals_ = interp.ctx.globals
    if name in globals_:
        return globals_[name]
    if name in interp.ctx.user_functions or name in interp.ctx.user_classes:
        return OTHER_VAL
    if name in BUILTINS_OTHER or name in ("list", "dict", "tuple", "sum", "min", "max", "sorted", "reversed",
                                          "abs", "next", "None", "True", "False", "NotImplemented", "__name__"):
        return OTHER_VAL
    return Val(kind=UNKNOWN, grad=guessed_grad(interp), groups=frozenset({"global:" + name}))


NON_TENSOR_ANNOTATIONS = {"int", "float", "str", "bool", "bytes", "complex", "list", "dict", "tuple", "set",
                          "List", "Dict", "Tuple", "Set", "Sequence", "Callable", "ndarray", "np.ndarray",
                          "numpy.ndarray", "Iterable", "Iterator", "None"}


def from_annotation(interp: "Interpreter", annotation: cst.Annotation) -> Optional[Val]:
    node = annotation.annotation
    if type(node) is cst.SimpleString:
        head = node.value.strip("'\"").split("[")[0].strip()
    else:
        # ``Optional[Tensor]`` -> "Optional"; the source text (a codegen) only for other shapes
        head = dotted(node.value if type(node) is cst.Subscript else node) \
            or interp.ctx.code(node, 200).split("[")[0].strip()
    qualname = interp.unit.imports.resolve(node) if type(node) in (cst.Name, cst.Attribute) else None
    if qualname in ("torch.LongTensor", "torch.IntTensor", "torch.BoolTensor", "torch.ByteTensor") or head in (
            "torch.LongTensor", "torch.IntTensor", "torch.BoolTensor", "LongTensor", "BoolTensor"):
        return Val(kind=TENSOR, grad=NO)  # integer and bool tensors never require grad
    if qualname in ("torch.Tensor", "torch.FloatTensor", "torch.nn.Parameter") or head in ("Tensor", "torch.Tensor"):
        return Val(kind=TENSOR, grad=MAYBE)
    if head in NON_TENSOR_ANNOTATIONS or head.endswith("ndarray"):
        return OTHER_VAL
    if qualname is not None and qualname.startswith("torch.nn.") and "Module" in qualname:
        return Val(kind=MODULE, grad=NO, module=ModuleInfo(None, "params:annot"))
    return None


# ============================================================================== custom autograd.Function
@dataclass(frozen=True)
class FunctionSummary:
    """What a custom ``autograd.Function``'s forward hands to ``ctx.save_for_backward``, and which of its
    inputs it writes in place (marked dirty)."""

    name: str
    inputs_saved: Tuple[int, ...]  # indices into apply(...)'s arguments
    saves_result: bool
    node: cst.CSTNode
    dirty: Tuple[int, ...] = ()  # indices of the arguments its forward writes in place
    returns_dirty: Optional[int] = None  # the index of a dirty argument it returns (that very tensor)

    def apply(self, interp: "Interpreter", state: State, node: cst.Call) -> Val:
        vals = [interp.eval(state, a.value) for a in node.args]
        for index in self.dirty:
            # the forward writes what the caller passed, before its own saves (a save_for_backward of the
            # written input saves the new version): the write is the apply call's
            if index < len(vals) and vals[index].tensorish and not node.args[index].keyword \
                    and not node.args[index].star:
                arg = node.args[index].value
                form = "function" if index == 0 else "apply_input"
                write = interp.write_site(node, form, node, arg)
                vals[index] = interp.inplace_write(state, vals[index], write, {"self": vals[index]}, None,
                                                   node, self.name + ".apply")
        grad = _grad_of(interp, vals)
        hist = frozenset()
        for v in vals:
            hist |= v.hist
        returned = self.returns_dirty
        if returned is not None and returned < len(vals) and vals[returned].tensorish:
            groups = vals[returned].groups
        else:
            groups = frozenset({interp.new_group(state, node)})
        if grad != NO and not interp.unit.hooks_depth:
            for index in self.inputs_saved:
                if index < len(vals) and vals[index].tensorish:
                    sid = interp.ctx.site(node, f"save:arg{index}")
                    site = SaveSite(sid, node, self.name + ".apply", node.args[index].value, "input",
                                    f"arg{index}", origin_of(vals))
                    hist |= {interp.create_record(state, sid, site, vals[index].groups)}
            if self.saves_result:
                sid = interp.ctx.site(node, "save:result")
                site = SaveSite(sid, node, self.name + ".apply", "", "result", "result", origin_of(vals))
                hist |= {interp.create_record(state, sid, site, groups)}
        return Val(kind=TENSOR, grad=grad, groups=groups, hist=hist, origin=origin_of(vals))
