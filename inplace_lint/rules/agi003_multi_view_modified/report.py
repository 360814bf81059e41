"""AGI003's message and fix: the write rewritten out of place, as for AGI001, always unsafe; a split
output filled with a tensor that requires grad gets no fix."""

from __future__ import annotations

from typing import Optional

from inplace_lint.fixkit import fixes
from inplace_lint.knowledge import multi_view_node
from inplace_lint.model.findings import Evidence, Finding

MULTI_VIEW_ERROR = (
    "This view is the output of a function that returns multiple views. Such functions do not allow the "
    "output views to be modified inplace"
)
MULTI_VIEW_FILL = "split output filled with grad"  # the evidence's role for a split output of no grad
UNBOUND = "torch.Tensor.__iter__"  # the op of a tensor's rows, iterated or unpacked: unbind


def report(draft) -> Finding:
    op, target, target_q = draft.op, draft.target, draft.target_q
    origin = draft.event.origin
    because, at, source = draft.grad_evidence(draft.event.grad_origin)
    if draft.event.fill:
        message = (
            f"'{op}' writes a tensor that requires grad into {target_q}{draft.aside(because)}, "
            f"{_what(draft, origin, 'does not')}; "
            f"torch raises at once \"A view was created in no_grad mode and is being modified inplace with "
            f"grad mode enabled. {MULTI_VIEW_ERROR}\".{_siblings(draft, origin)} Write through the base "
            f"tensor (buf[i] = ...) or build the result out of place (torch.stack)."
        )
        evidence = Evidence(op, target, role=MULTI_VIEW_FILL, runtime_error=MULTI_VIEW_ERROR)
    else:
        message = (
            f"'{op}' modifies {target_q} in place, but it is {_what(draft, origin, 'requires grad' + because)}; "
            f"torch raises at once \"{_torch_names(origin)} is a view and is being modified inplace. "
            f"{MULTI_VIEW_ERROR}\".{_siblings(draft, origin)}"
        )
        evidence = Evidence(op, target, runtime_error=MULTI_VIEW_ERROR)
    evidence = draft.with_grad_evidence(evidence, draft.event.grad_origin, at, source)
    return draft.with_fix(draft.finding(message, evidence), plan_fix)


def _what(draft, origin, grad: str) -> str:
    """What the written tensor is, and whether the tensor split ``grad`` ("requires grad"): "output 2 of
    `qkv.unbind(0)`, split from a tensor that requires grad", "a view of an output of `x.chunk(2)`, ..."."""
    if origin is None or origin.call is None:
        return f"an output of split/chunk/unbind (or a view of one) of a tensor that {grad}"
    known = origin.stage != "outputs" and origin.output >= 0
    view = "a view of " if origin.stage == "view" else ""
    if origin.qualname == UNBOUND:  # ``for row in x``, ``h, c = x``
        row = f"row {origin.output}" if known else "a row"
        return (f"{view}{row} of `{draft.code(origin.call)}`, which {grad} (iterating over a tensor or "
                f"unpacking it unbinds it)")
    output = f"output {origin.output}" if known else "an output"
    return f"{view}{output} of `{draft.code(origin.call)}`, split from a tensor that {grad}"


def _torch_names(origin) -> str:
    """How torch 2.13's error begins: "Output 2 of Unbind" (knowledge/multi_view_nodes.json), "..." for
    what the code does not tell; a view of an output is named by its own node ("Output 0 of View")."""
    if origin is None or origin.stage == "view":
        return "..."
    node = multi_view_node(origin.qualname, origin.sizes)
    index = origin.output if origin.stage == "output" and origin.output >= 0 else None
    if node is None and index is None:
        return "..."
    return f"Output {index if index is not None else '...'} of {node or '...'}"


def _siblings(draft, origin) -> str:
    """The other names holding outputs of the same call: a write through one is a write to their tensor."""
    siblings = draft.event.siblings
    if not siblings or origin is None or origin.call is None:
        return ""
    event = draft.event
    # the written name, or the name of the output a view of which is written (not a tuple of the outputs)
    written = event.write.target_text if event.write.target_is_local_name else \
        event.base_text if origin.stage == "view" else ""
    names = [f"`{n}`" for n in ([written] if written else []) + sorted(set(siblings) - {written})]
    listed = ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else names[0]
    rows = origin.qualname == UNBOUND
    if len(names) == 1:
        are = "is also a row" if rows else "is also an output"
    else:
        are = ("are also rows" if rows else "are also outputs") if not written else \
            ("are rows" if rows else "are outputs")
    made_by = draft.code(origin.call)
    return f" {listed} {are} of `{made_by}`: views of one tensor, they share its version counter."


def plan_fix(s, finding: Finding) -> Optional[fixes.Plan]:
    if finding.evidence.role == MULTI_VIEW_FILL:
        return None  # filling a buffer's split outputs: the code needs rewriting (outputs[t] = h, stack)
    plan = fixes.plan_out_of_place(s, finding)
    if plan is not None:
        # out of place, the write no longer reaches the split tensor through the view: where the code
        # also runs without grad (evaluation), that tensor keeps its old values
        plan.safe = False
    return plan
