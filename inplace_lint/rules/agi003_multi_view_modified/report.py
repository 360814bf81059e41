"""AGI003's message and fix: the write rewritten out of place, as for AGI001, always unsafe; a split
output filled with a tensor that requires grad gets no fix."""

from __future__ import annotations

from typing import Optional

from inplace_lint.fixkit import fixes
from inplace_lint.model.findings import Evidence, Finding

MULTI_VIEW_ERROR = (
    "This view is the output of a function that returns multiple views. Such functions do not allow the "
    "output views to be modified inplace"
)
MULTI_VIEW_FILL = "split output filled with grad"  # the evidence's role for a split output of no grad


def report(draft) -> Finding:
    op, target, target_q = draft.op, draft.target, draft.target_q
    if draft.event.fill:
        message = (
            f"'{op}' writes a tensor that requires grad into {target_q}, an output of split/chunk/unbind (or "
            f"a view of one) of a tensor that does not; torch raises at once \"A view was created in no_grad "
            f"mode and is being modified inplace with grad mode enabled. {MULTI_VIEW_ERROR}\". Write through "
            f"the base tensor (buf[i] = ...) or build the result out of place (torch.stack)."
        )
        evidence = Evidence(op, target, role=MULTI_VIEW_FILL, runtime_error=MULTI_VIEW_ERROR)
    else:
        # torch 2.13 names the node "Split" / "Unbind" (older releases "SplitBackward0"); the rest is fixed
        message = (
            f"'{op}' modifies {target_q} in place, but it is an output of split/chunk/unbind (or a view "
            f"of one) of a tensor that requires grad; torch raises at once \"Output 0 of Split is a view "
            f"and is being modified inplace. {MULTI_VIEW_ERROR}\"."
        )
        evidence = Evidence(op, target, runtime_error=MULTI_VIEW_ERROR)
    return draft.with_fix(draft.finding(message, evidence), plan_fix)


def plan_fix(s, finding: Finding) -> Optional[fixes.Plan]:
    if finding.evidence.role == MULTI_VIEW_FILL:
        return None  # filling a buffer's split outputs: the code needs rewriting (outputs[t] = h, stack)
    plan = fixes.plan_out_of_place(s, finding)
    if plan is not None:
        # out of place, the write no longer reaches the split tensor through the view: where the code
        # also runs without grad (evaluation), that tensor keeps its old values
        plan.safe = False
    return plan
