"""AGI004's message and fix: the write runs under no_grad, as the view was made (unsafe), unless the view
is read again afterwards or is filled with a tensor that requires grad (then there is no fix)."""

from __future__ import annotations

from typing import Optional

import libcst as cst

from inplace_lint.fixkit import fixes
from inplace_lint.model.findings import Evidence, Finding

# "A view was created in no_grad mode and is being modified inplace with grad mode enabled" (or, for a
# view of such a view, "Output 0 of Slice is a view of a view which was created in no_grad mode ...")
NOGRAD_VIEW_ERROR = "created in no_grad mode and is being modified inplace with grad mode enabled"
NOGRAD_VIEW_FILL = "no_grad view filled with grad"  # the evidence's role for a view of no grad


def report(draft) -> Finding:
    op, target, target_q = draft.op, draft.target, draft.target_q
    because, at, source = draft.grad_evidence(draft.event.grad_origin)
    if draft.event.fill:
        message = (
            f"'{op}' writes a tensor that requires grad into {target_q}{draft.aside(because)}, a view made under torch.no_grad() "
            f"(or inference_mode) of a tensor that does not; torch raises at once \"A view was "
            f"{NOGRAD_VIEW_ERROR}\". Make the view outside no_grad, or build the result out of place."
        )
        evidence = Evidence(op, target, role=NOGRAD_VIEW_FILL, runtime_error=NOGRAD_VIEW_ERROR)
    else:
        message = (
            f"'{op}' modifies {target_q} in place with grad mode on, but it is a view made under "
            f"torch.no_grad() (or inference_mode) of a tensor that requires grad{because}; torch raises at once "
            f"\"A view was {NOGRAD_VIEW_ERROR}\". Make the view outside no_grad, write it under no_grad "
            f"too, or clone it."
        )
        evidence = Evidence(op, target, runtime_error=NOGRAD_VIEW_ERROR)
    evidence = draft.with_grad_evidence(evidence, draft.event.grad_origin, at, source)
    return draft.with_fix(draft.finding(message, evidence), plan_fix)


def plan_fix(s, finding: Finding) -> Optional[fixes.Plan]:
    if finding.evidence.role == NOGRAD_VIEW_FILL:
        # wrapped in no_grad, the write would drop the gradient of what it writes, which the code wants
        return None
    # the view already opted out of autograd: write it without recording, as it was made
    site = finding.site
    plan = fixes.plan_no_grad(s, finding)
    if plan is not None:
        plan.safe = False  # any gradient through the tensor the view shares no longer sees the write
        node = s.find(site.start, site.end, (cst.BaseSmallStatement, cst.Call))
        stmt = fixes.Statement(node, "nested") if isinstance(node, cst.BaseSmallStatement) else \
            fixes.statement(s, node) if node is not None else None
        if stmt is None or not (site.target_text or "").isidentifier() or \
                fixes.read_later(s, site.target_text, stmt):
            # torch also refuses to read a no_grad view with grad on once it was written, even under
            # no_grad: a view read again needs another rewrite (made outside no_grad, or cloned)
            plan = None
    return plan
