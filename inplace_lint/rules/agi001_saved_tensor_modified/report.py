"""AGI001's message and fix: the write rewritten out of place (fixkit's plan by form, safe when nothing
else sees the written tensor); a forward hook's write gets a copy it returns, a ``max_norm`` lookup gives
the saving op a copy of the weight, and a method writing its module's tensors is called after the
backward; an optimizer step or a parameter update gets none (the message says what to do)."""

from __future__ import annotations

import libcst as cst

from inplace_lint.fixkit import fixes
from inplace_lint.model.findings import Evidence, Finding, Position

VERSION_ERROR = "one of the variables needed for gradient computation has been modified by an inplace operation"

# Friendlier names for the operands of the common binary ops.
ROLE_NAMES = {
    ("mul", "self"): "the multiplicand",
    ("mul", "other"): "the multiplier",
    ("mul_", "self"): "the multiplicand",
    ("mul_", "other"): "the multiplier",
    ("truediv", "self"): "the dividend",
    ("truediv", "other"): "the divisor",
    ("div", "self"): "the dividend",
    ("div", "other"): "the divisor",
    ("div_", "other"): "the divisor",
    ("pow", "self"): "the base",
    ("pow", "exponent"): "the exponent",
    ("pow_", "exponent"): "the exponent",
    ("matmul", "self"): "the left operand",
    ("matmul", "other"): "the right operand",
}


def role_text(qualname: str, role: str, argument: str) -> str:
    if role == "result":
        return "as its result"
    short = qualname.split(".")[-1]
    if short.startswith("r") and short[1:] in ("mul", "truediv", "pow", "matmul", "sub", "add"):
        short = short[1:]
        argument = {"self": "other", "other": "self"}.get(argument, argument)
    if short.startswith("__") and short.endswith("__"):
        short = short[2:-2]
    friendly = ROLE_NAMES.get((short, argument))
    if friendly:
        return "as " + friendly
    if argument == "parameters":
        return "its parameters, to compute its input's gradient"
    if argument == "method parameters":
        return "those its ops used"
    return f"as its input '{argument}'"


def report(draft) -> Finding:
    event = draft.event
    write = event.write
    op, target, target_q = draft.op, draft.target, draft.target_q
    positions = draft.positions
    save = event.save
    saving_line = saving_column = None
    saving_text = "an earlier op"
    role = argument = None
    saved = target
    if save is not None and save.role == "result" and write.form == "module_ctor":
        saved = "its output"
    if save is not None:
        node = event.save_node
        if node is not None and node in positions:
            saving_line = positions[node].start.line
            saving_column = positions[node].start.column
        saving_text = draft.code(save.op_text)
        role = save.role
        argument = save.argument
        if save.role == "input" and save.saved_text:
            saved = draft.code(save.saved_text)
    where = f" on line {saving_line}" if saving_line else ""
    because, grad_at, grad_source = draft.grad_evidence(save.origin if save is not None else None)
    reach, backward_line = _reach(draft, event.reached_by)
    role_part = f" ({role_text(save.qualname, save.role, save.argument)})" if save is not None else ""
    inner = event.inner_op if save is not None else None
    if inner is not None:  # a function of this file saved it: name the op inside that did
        role_part = f" (its parameter '{save.argument}', which '{draft.code(inner)}' saves)"
    if write.form in ("optimizer_step", "parameter_update"):
        # there is no fix (the parameters have to change in place): say what to do instead
        when = f"Call '{op}'" if write.form == "optimizer_step" else "Update them"
        message = (
            f"'{op}' updates parameters in place, but '{saving_text}'{where} saved {draft.quote(saved)} "
            f"for backward{role_part}{because}; {reach or 'a later backward through it'} will raise \"{VERSION_ERROR}\". "
            f"{when} after the last backward that needs the old parameters, or run the forward pass "
            f"again after it (a GAN: the discriminator's loss on D(fake.detach()), the generator's on a new "
            f"D(fake) computed after the discriminator's step)."
        )
    else:
        message = (
            f"'{op}' modifies {target_q} in place{built_inplace(draft)}, but '{saving_text}'{where} "
            f"saved {draft.quote(saved)} for backward{role_part}{because}; {reach or 'backward'} will raise "
            f"\"{VERSION_ERROR}\"."
        )
    evidence = draft.with_grad_evidence(
        Evidence(op, target, saving_text, saving_line, saving_column, role, argument, VERSION_ERROR,
                 backward_line=backward_line),
        save.origin if save is not None else None, grad_at, grad_source)
    finding = draft.finding(message, evidence)
    if event.hook is not None:
        return _with_hook_fix(draft, finding, event.hook)
    if write.form == "renorm":
        return _with_saved_copy(draft, finding, save)
    if event.outside_calls:
        return _with_call_moved(draft, finding, event.outside_calls)
    return draft.with_fix(finding, plan_fix)


def _reach(draft, reached_by):
    """What runs the backward that meets the stale save, as the message names it ("'loss.backward()' on
    line 30", "a backward through what line 12 returns"), and its line; ("", None) when not known."""
    if reached_by is None or reached_by[1] not in draft.positions:
        return "", None
    how, node = reached_by
    line = draft.positions[node].start.line
    if how == "return":
        return f"a backward through what line {line} returns", line
    return f"'{draft.code(node)}' on line {line}", line


def _with_saved_copy(draft, finding: Finding, save) -> Finding:
    """A ``max_norm`` lookup renormalises the weight another op saved: the renormalisation is the point of
    ``max_norm``, so the fix gives the saving op a copy (``self.emb.weight.clone()``), as torch's
    documentation of ``nn.Embedding`` advises. Same forward values; the gradient flows through the copy."""
    operand = save.saved_text if save is not None and save.role == "input" else None
    if isinstance(operand, cst.CSTNode):
        operands = [operand]
        advice = "Give the saving op a copy of the weight ('.clone()'), or compute it after the lookup"
    else:
        # an earlier call of the module saved it (``decoder.step(...)``): where its own ops saved the weight
        # (``F.linear(h, self.emb.weight)``), they can be handed a copy
        written = finding.site.target_text if finding.site is not None else ""
        operands = [node for node in (draft.event.saved_operands if save is not None else ())
                    if written and _names_or_views(draft.code(node, 200), written)]
        advice = ("Use a copy of the weight where the module saves it ('.clone()'), or run the backward "
                  "before the next call")

    positions = draft.positions

    def plan():
        if not operands or any(node not in positions for node in operands):
            return None
        places = []
        for node in sorted(operands, key=lambda n: (positions[n].start.line, positions[n].start.column)):
            where = positions[node]
            places.append((Position(where.start.line, where.start.column),
                           Position(where.end.line, where.end.column),
                           type(node) in (cst.Name, cst.Attribute, cst.Subscript, cst.Call)))
        return fixes.saved_copy_fix(draft.parse(), places)

    return draft.with_own_fix(finding, plan, "That save must hold the weight as it was.", advice)


def _with_call_moved(draft, finding: Finding, calls) -> Finding:
    """A method's write to its own module's tensors, called from outside the class
    (``critic.clip_weights(c)`` between the forward and the backward): the write itself is the method's
    purpose, so the fix moves the one call after the backward that needs the saved tensors."""
    call_text = draft.code(calls[0])
    positions = draft.positions

    def plan():
        if len(calls) != 1 or calls[0] not in positions:
            return None
        where = positions[calls[0]]
        return fixes.call_after_backward_fix(draft.parse(), Position(where.start.line, where.start.column),
                                             Position(where.end.line, where.end.column))

    return draft.with_own_fix(finding, plan, f"'{call_text}' writes the module's own tensors.",
                         f"Call '{call_text}' after the backward that needs them "
                         "(or run the forward again after it)")


def _names_or_views(code: str, name: str) -> bool:
    """Is ``code`` the tensor ``name`` or an expression starting from it (``self.emb.weight.t()``), and not
    another name it is a prefix of (``self.emb.weight_scale``)?"""
    return code == name or code.startswith((name + ".", name + "["))


def _with_hook_fix(draft, finding: Finding, hook: str) -> Finding:
    """A write by a forward hook to its module's output: the fix works on a copy that the hook returns
    (rebinding the name inside the hook, the usual fix, would silently drop the hook's effect)."""
    return draft.with_own_fix(finding, lambda: fixes.forward_hook_fix(draft.parse(), finding, hook),
                         f"The forward hook '{hook}' runs after that save.",
                         f"Write a copy in '{hook}' and return it "
                         "(its return value replaces the module's output)")


def built_inplace(draft) -> str:
    """What made the write in place, when a module or a ``max_norm`` lookup did it: said after "in place"."""
    write = draft.event.write
    if write.form == "renorm":
        given = draft.code(write.kwarg_node) if write.kwarg_node is not None else "max_norm"
        return f" ({given}: each call first renormalises the rows it looks up)"
    if write.form != "module_call":
        return ""
    flip = draft.inplace_flip
    if write.kwarg_node is None and flip is not None:  # built out of place, switched in place later
        return f" (the module was switched in place by '{draft.code(flip.line_node, 50)}')"
    given = write.kwarg_node
    if type(given) is cst.Arg and type(given.value) is cst.Name and given.value.value != "True":
        # nn.ReLU(inplace=inplace): a flag True by default that no call passes
        return f" (the module was built with inplace={given.value.value}, True by default)"
    return " (the module was built with inplace=True)"


plan_fix = fixes.plan_out_of_place
