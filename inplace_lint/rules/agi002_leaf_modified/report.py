"""AGI002's message and fix.

The fix wraps the statement in ``with torch.no_grad():`` -- safe for updates (augmented assignments,
subscript writes, ``add_``, ``copy_``, ``clamp_``, ``zero_``, initialisers ...), unsafe for math ops on
the leaf itself (``exp_``); an activation's ``inplace=True`` (functional or module) is removed instead,
since running the activation under no_grad would also cut its gradient (unsafe); a custom Function that
writes its input in place (``ctx.mark_dirty``) is applied to a clone of the leaf (unsafe: the leaf keeps
its values).
"""

from __future__ import annotations

from typing import Optional

import libcst as cst

from inplace_lint.fixkit import fixes
from inplace_lint.model.findings import Evidence, Finding

LEAF_ERROR = "a leaf Variable that requires grad is being used in an in-place operation"

# In-place methods that update a tensor rather than compute with it: under no_grad, the update as written
_LEAF_UPDATE_METHODS = frozenset({
    "add_", "sub_", "mul_", "div_", "copy_", "zero_", "fill_", "clamp_", "clamp_min_", "clamp_max_", "clip_",
    "masked_fill_", "lerp_", "addcmul_", "addcdiv_", "normal_", "uniform_", "index_fill_", "masked_scatter_",
    "scatter_", "index_copy_", "index_add_", "fill_diagonal_", "bernoulli_", "random_", "exponential_",
})


def report(draft) -> Finding:
    op, target_q = draft.op, draft.target_q
    because, at, source = draft.grad_evidence(draft.event.grad_origin)
    # "but 'nn.Parameter(...)' on line 10, a parameter, requires grad" (the clause without its "because")
    why = because[len(" because "):] if because else "it requires grad"
    message = (
        f"'{op}' modifies leaf tensor {target_q} in place, but {why}; torch raises at once "
        f"\"{LEAF_ERROR}\". Update it under 'with torch.no_grad():' or work on a copy."
    )
    evidence = draft.with_grad_evidence(Evidence(op, draft.target, runtime_error=LEAF_ERROR),
                                        draft.event.grad_origin, at, source)
    return draft.with_fix(draft.finding(message, evidence), plan_fix)


def plan_fix(s, f: Finding) -> Optional[fixes.Plan]:
    form = f.site.form
    if form in ("inplace_kwarg", "module_ctor", "module_call"):
        # An activation applied to a leaf: computing it out of place keeps its gradient; running it
        # under no_grad would not (and for a module constructor, would not even stop the error). The
        # leaf then keeps its values: safe only when nothing reads it afterwards.
        plan = fixes.plan_out_of_place(s, f)
        if plan is not None:
            call = s.find(f.site.start, f.site.end, cst.Call)
            stmt = fixes.statement(s, call) if call is not None and form == "inplace_kwarg" else None
            plan.safe = bool(plan.safe and stmt is not None and f.site.target_is_local_name
                             and not fixes.read_later(s, f.site.target_text, stmt))
        return plan
    if form in ("optimizer_step", "parameter_update"):
        return None
    if form in ("function", "apply_input"):
        call = s.find(f.site.start, f.site.end, cst.Call)
        if call is not None and isinstance(call.func, cst.Attribute) and call.func.attr.value == "apply":
            return _plan_apply_on_clone(s, f, call)
    plan = fixes.plan_no_grad(s, f)
    if plan is not None:
        # An update of a leaf (an optimizer step, a weight clip, an initialisation, loading weights) is
        # meant not to be recorded: running it under no_grad is exactly that. A math op applied to the
        # leaf itself (log_var.exp_()) may have been meant as part of the computation: review it.
        method = f.evidence.inplace_op[:-2] if f.evidence.inplace_op.endswith("()") else ""
        # torch._foreach_lerp_(shadow_params, ...): the same update on every tensor of a list
        method = method[len("_foreach_"):] if method.startswith("_foreach_") else method
        plan.safe = form in ("augassign", "subscript") or method in _LEAF_UPDATE_METHODS
    return plan


def _plan_apply_on_clone(s, f: Finding, call: cst.Call) -> Optional[fixes.Plan]:
    """``Fn.apply(w)`` with a forward that writes its input in place (``ctx.mark_dirty``): apply it to a clone
    of ``w``. The gradient still reaches ``w`` (under no_grad it would not); unsafe: ``w`` keeps its old
    values, where code running without grad may have relied on the write."""
    written = f.site.target_text
    arg = next((a for a in call.args if not a.keyword and not a.star and s.code(a.value) == written), None)
    if arg is None:
        return None
    new_call = fixes.out_of_place_call(s, call, arg.value, call.func.attr, None, clone_arg=arg)
    return fixes.Plan(fixes.write_title(new_call), False, [fixes.replace(s, call, new_call)])
