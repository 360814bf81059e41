"""Turn a hazard into a Finding: the message states the evidence and the error torch will raise."""

from __future__ import annotations

import io
import re
import tokenize
from typing import Optional

import libcst as cst

from inplace_lint.model import debug
from inplace_lint.model.findings import Evidence, Finding, InplaceSite, Position
from inplace_lint.rules import RULES

# How often a lint looked beyond the reduced text the analysis saw (then its findings are not a function
# of that text, and a Memo must not keep them).
WHOLE_SOURCE_READS = [0]

VERSION_ERROR = "one of the variables needed for gradient computation has been modified by an inplace operation"
LEAF_ERROR = "a leaf Variable that requires grad is being used in an in-place operation"
# torch 2.13 names the node "Split" / "Unbind" (older releases "SplitBackward0"); the rest is fixed
MULTI_VIEW_ERROR = (
    "This view is the output of a function that returns multiple views. Such functions do not allow the "
    "output views to be modified inplace"
)
# "A view was created in no_grad mode and is being modified inplace with grad mode enabled" (or, for a
# view of such a view, "Output 0 of Slice is a view of a view which was created in no_grad mode ...")
NOGRAD_VIEW_ERROR = "created in no_grad mode and is being modified inplace with grad mode enabled"
MULTI_VIEW_FILL = "split output filled with grad"  # AGI003's evidence role for that case
NOGRAD_VIEW_FILL = "no_grad view filled with grad"  # AGI004's evidence role for a view of no grad

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


def _private_helper_write(ctx, write, source: str) -> bool:
    """A write to a parameter of a private helper (``_name``) that every call in this file makes on an
    argument its caller cannot see afterwards, and that no other name in the helper holds: rebinding the
    parameter instead changes nothing anyone observes."""
    if not (ctx.private_call_args.get(write.site) and ctx.private_in_helper.get(write.site)):
        return False
    helper = ctx.helper_of_write.get(write.site)
    if helper is None or not helper.startswith("_"):
        return False
    # every mention of the helper's name in the code (not in strings or comments) is one of the calls
    # seen, plus its definition
    if not re.search(r"(?<![\w])" + re.escape(helper) + r"(?!\w)", source):
        return False
    WHOLE_SOURCE_READS[0] += 1
    try:
        mentions = sum(1 for token in tokenize.generate_tokens(io.StringIO(source).readline)
                       if token.type == tokenize.NAME and token.string == helper)
    except (tokenize.TokenError, SyntaxError):
        return False
    return mentions == ctx.helper_calls.get(helper, 0) + 1


def build_finding(ctx, hazard, positions, path: str, source: str) -> Optional[Finding]:
    write = hazard.write
    code_range = positions.get(write.node)
    if code_range is None:
        return None
    start = Position(code_range.start.line, code_range.start.column)
    end = Position(code_range.end.line, code_range.end.column)
    kwarg_start = kwarg_end = None
    if write.kwarg_node is not None and write.kwarg_node in positions:
        kr = positions[write.kwarg_node]
        kwarg_start, kwarg_end = Position(kr.start.line, kr.start.column), Position(kr.end.line, kr.end.column)
    base_text, base_shared = ctx.view_bases.get(write.site, ("", True))
    written = write.target_text or (ctx.code(write.target_node, 80) if write.target_node is not None else "")
    shared = ctx.shared_writes.get(write.site, True)
    holders = tuple(sorted(ctx.write_holders.get(write.site) or ()))
    if shared and _private_helper_write(ctx, write, source):
        shared, holders = False, ()
    site = InplaceSite(write.form, start, end, written, kwarg_start, kwarg_end, write.target_is_local_name,
                       shared, base_text, base_shared, holders)
    rule = RULES[hazard.code]
    op = ctx.code(write.op_text)
    target = written or "its input"
    target_q = _quote(target)
    immediate = _immediate_error(ctx, hazard.code, write, op, target, target_q)
    if immediate is not None:  # AGI002-AGI004: torch raises at the write itself
        message, evidence = immediate
        finding = Finding(hazard.code, rule.name, message, path, start, end, evidence, site)
        return _with_fix(finding, source)
    save = hazard.save
    saving_line = saving_column = None
    saving_text = "an earlier op"
    role = argument = None
    saved = target
    if save is not None and save.role == "result" and write.form == "module_ctor":
        saved = "its output"
    if save is not None:
        node = ctx.site_nodes.get(save.site)
        if node is not None and node in positions:
            saving_line = positions[node].start.line
            saving_column = positions[node].start.column
        saving_text = ctx.code(save.op_text)
        role = save.role
        argument = save.argument
        if save.role == "input" and save.saved_text:
            saved = ctx.code(save.saved_text)
    where = f" on line {saving_line}" if saving_line else ""
    role_part = f" ({role_text(save.qualname, save.role, save.argument)})" if save is not None else ""
    inner = ctx.argument_save_sites.get(save.site) if save is not None else None
    if inner is not None:  # a function of this file saved it: name the op inside that did
        role_part = f" (its parameter '{save.argument}', which '{ctx.code(inner)}' saves)"
    if write.form in ("optimizer_step", "parameter_update"):
        # there is no fix (the parameters have to change in place): say what to do instead
        when = f"Call '{op}'" if write.form == "optimizer_step" else "Update them"
        message = (
            f"'{op}' updates parameters in place, but '{saving_text}'{where} saved {_quote(saved)} "
            f"for backward{role_part}; a later backward through it will raise \"{VERSION_ERROR}\". "
            f"{when} after the last backward that needs the old parameters, or run the forward pass "
            f"again after it (a GAN: the discriminator's loss on D(fake.detach()), the generator's on a new "
            f"D(fake) computed after the discriminator's step)."
        )
    else:
        message = (
            f"'{op}' modifies {target_q} in place{_built_inplace(ctx, write)}, but '{saving_text}'{where} "
            f"saved {_quote(saved)} for backward{role_part}; backward will raise \"{VERSION_ERROR}\"."
        )
    evidence = Evidence(op, target, saving_text, saving_line, saving_column, role, argument, VERSION_ERROR)
    finding = Finding(hazard.code, rule.name, message, path, start, end, evidence, site)
    hook = ctx.hook_writes.get(write.site)
    if hook is not None:
        return _with_hook_fix(finding, source, hook)
    if write.form == "renorm":
        return _with_saved_copy(ctx, finding, source, save, positions)
    calls = ctx.receiver_writes.get(write.site)
    if calls:
        return _with_call_moved(ctx, finding, source, calls, positions)
    return _with_fix(finding, source)


def _with_saved_copy(ctx, finding: Finding, source: str, save, positions) -> Finding:
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
        key = ctx.param_save_origin.get(save.site) if save is not None else None
        operands = [node for node in ctx.param_save_operands.get(key, ())
                    if written and _names_or_views(ctx.code(node, 200), written)]
        advice = ("Use a copy of the weight where the module saves it ('.clone()'), or run the backward "
                  "before the next call")

    def plan(fixes):
        if not operands or any(node not in positions for node in operands):
            return None
        places = []
        for node in sorted(operands, key=lambda n: (positions[n].start.line, positions[n].start.column)):
            where = positions[node]
            places.append((Position(where.start.line, where.start.column),
                           Position(where.end.line, where.end.column),
                           type(node) in (cst.Name, cst.Attribute, cst.Subscript, cst.Call)))
        return fixes.saved_copy_fix(source, places)

    return _with_own_fix(finding, plan, "That save must hold the weight as it was.", advice)


def _with_call_moved(ctx, finding: Finding, source: str, calls, positions) -> Finding:
    """A method's write to its own module's tensors, called from outside the class
    (``critic.clip_weights(c)`` between the forward and the backward): the write itself is the method's
    purpose, so the fix moves the one call after the backward that needs the saved tensors."""
    call_text = ctx.code(calls[0])

    def plan(fixes):
        if len(calls) != 1 or calls[0] not in positions:
            return None
        where = positions[calls[0]]
        return fixes.call_after_backward_fix(source, Position(where.start.line, where.start.column),
                                             Position(where.end.line, where.end.column))

    return _with_own_fix(finding, plan, f"'{call_text}' writes the module's own tensors.",
                         f"Call '{call_text}' after the backward that needs them "
                         "(or run the forward again after it)")


def _names_or_views(code: str, name: str) -> bool:
    """Is ``code`` the tensor ``name`` or an expression starting from it (``self.emb.weight.t()``), and not
    another name it is a prefix of (``self.emb.weight_scale``)?"""
    return code == name or code.startswith((name + ".", name + "["))


def _with_hook_fix(finding: Finding, source: str, hook: str) -> Finding:
    """A write by a forward hook to its module's output: the fix works on a copy that the hook returns
    (rebinding the name inside the hook, the usual fix, would silently drop the hook's effect)."""
    return _with_own_fix(finding, lambda fixes: fixes.forward_hook_fix(finding, source, hook),
                         f"The forward hook '{hook}' runs after that save.",
                         f"Write a copy in '{hook}' and return it "
                         "(its return value replaces the module's output)")


def _with_own_fix(finding: Finding, plan, why: str, advice: str) -> Finding:
    """``finding`` with the fix ``plan(fixes)`` makes for it (where the usual per-form fixes would be
    wrong), its message told ``why`` and then the fix's title, or ``advice`` when there is no fix."""
    from inplace_lint.fixkit import fixes

    try:
        fix = plan(fixes)
    except Exception:  # never a crash: the finding stands without its fix
        if debug.DEBUG:
            raise
        fix = None
    message = f"{finding.message} {why} {fix.title if fix is not None else advice}."
    return finding.replace(message=message, fix=fix)


def _immediate_error(ctx, code: str, write, op: str, target: str, target_q: str):
    """(message, evidence) of a rule whose error torch raises at the write itself, else None."""
    if code == "AGI002":
        message = (
            f"'{op}' modifies leaf tensor {target_q} in place, but it requires grad; torch raises at once "
            f"\"{LEAF_ERROR}\". Update it under 'with torch.no_grad():' or work on a copy."
        )
        return message, Evidence(op, target, runtime_error=LEAF_ERROR)
    if code == "AGI003" and write.site in ctx.multiview_fills:
        message = (
            f"'{op}' writes a tensor that requires grad into {target_q}, an output of split/chunk/unbind (or "
            f"a view of one) of a tensor that does not; torch raises at once \"A view was created in no_grad "
            f"mode and is being modified inplace with grad mode enabled. {MULTI_VIEW_ERROR}\". Write through "
            f"the base tensor (buf[i] = ...) or build the result out of place (torch.stack)."
        )
        return message, Evidence(op, target, role=MULTI_VIEW_FILL, runtime_error=MULTI_VIEW_ERROR)
    if code == "AGI003":
        message = (
            f"'{op}' modifies {target_q} in place, but it is an output of split/chunk/unbind (or a view "
            f"of one) of a tensor that requires grad; torch raises at once \"Output 0 of Split is a view "
            f"and is being modified inplace. {MULTI_VIEW_ERROR}\"."
        )
        return message, Evidence(op, target, runtime_error=MULTI_VIEW_ERROR)
    if code == "AGI004" and write.site in ctx.nograd_view_fills:
        message = (
            f"'{op}' writes a tensor that requires grad into {target_q}, a view made under torch.no_grad() "
            f"(or inference_mode) of a tensor that does not; torch raises at once \"A view was "
            f"{NOGRAD_VIEW_ERROR}\". Make the view outside no_grad, or build the result out of place."
        )
        return message, Evidence(op, target, role=NOGRAD_VIEW_FILL, runtime_error=NOGRAD_VIEW_ERROR)
    if code == "AGI004":
        message = (
            f"'{op}' modifies {target_q} in place with grad mode on, but it is a view made under "
            f"torch.no_grad() (or inference_mode) of a tensor that requires grad; torch raises at once "
            f"\"A view was {NOGRAD_VIEW_ERROR}\". Make the view outside no_grad, write it under no_grad "
            f"too, or clone it."
        )
        return message, Evidence(op, target, runtime_error=NOGRAD_VIEW_ERROR)
    return None

def _quote(text: str) -> str:
    """'b' for a name the user wrote; descriptions ("its input", "the parameters of D") stay bare."""
    return text if text.startswith(("its ", "the ")) else f"'{text}'"


def _built_inplace(ctx, write) -> str:
    if write.form == "renorm":
        given = ctx.code(write.kwarg_node) if write.kwarg_node is not None else "max_norm"
        return f" ({given}: each call first renormalises the rows it looks up)"
    if write.form != "module_call":
        return ""
    flip = ctx.inplace_flip
    if write.kwarg_node is None and flip is not None:  # built out of place, switched in place later
        return f" (the module was switched in place by '{ctx.code(flip.line_node, 50)}')"
    given = write.kwarg_node
    if type(given) is cst.Arg and type(given.value) is cst.Name and given.value.value != "True":
        # nn.ReLU(inplace=inplace): a flag True by default that no call passes
        return f" (the module was built with inplace={given.value.value}, True by default)"
    return " (the module was built with inplace=True)"


def _with_fix(finding: Finding, source: str) -> Finding:
    try:
        from inplace_lint.fixkit import fixes
    except ImportError:
        return finding
    return fixes.attach(finding, source)
