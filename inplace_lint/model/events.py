"""What the analysis reports: one typed event per hazard it found at an in-place write.

A rule (inplace_lint.rules) turns the events of its type into findings. Each event carries what its
message and its fix need, joined over every analysis of the write (a helper's write is analysed once per
caller): the write itself (``analysis.values.WriteSite``: its node, form and texts), the tensor it was
seen through, and who else may see that tensor. The nodes and sites are the analysis's objects; texts
are rendered only when a finding needs them (``Analysis.code``).

Value classes only (this layer has no behaviour, and imports neither LibCST nor the analysis).
"""

from __future__ import annotations

from typing import Any, Optional, Tuple

from inplace_lint.model.records import Record


class WriteEvent(Record):
    """An in-place write the analysis found hazardous; the base of every event."""

    write: Any  # analysis.values.WriteSite: the write's site, node, form and texts
    unit: Any = None  # the function (node; None: the module's top level) whose analysis reported it
    # the local name the written tensor is a view of (``h`` of ``h[2:].zero_()``), and whether that name's
    # tensor may be seen elsewhere
    base_text: str = ""
    base_shared: bool = True
    shared: bool = True  # may the written tensor be seen by anything but the written name
    holders: Optional[frozenset] = frozenset()  # the other local names seeing it (None: not only locals)
    # a private helper (``_scale``) whose parameter this writes, where every call of it passes an argument
    # its caller cannot see afterwards and no other name in the helper sees it; with the calls analysed
    private_helper: Optional[str] = None
    helper_calls: int = 0
    # why the tensor written (for a fill: the tensor written into it) requires grad: an
    # analysis.values.GradOrigin, rendered by the rules (None: no evidence to show)
    grad_origin: Any = None


class StaleSave(WriteEvent):
    """A tensor an earlier op saved for backward, written in place before a backward reads it (torch:
    "one of the variables needed for gradient computation has been modified by an inplace operation")."""

    save: Any = None  # analysis.values.SaveSite: the saving op (None: not known)
    save_node: Any = None  # the node of the saving op, where its line is
    inner_op: Any = None  # a call of this file's function saved it: the op inside that did (node or text)
    # ops of a module's method that saved the weight a ``max_norm`` lookup renormalises (nodes)
    saved_operands: Tuple[Any, ...] = ()
    hook: Optional[str] = None  # the write is a forward hook's, to its module's output: the hook's name
    outside_calls: Tuple[Any, ...] = ()  # a method writing its module's tensors: the calls of it from outside
    # what reaches the stale save: ("backward", the call's node), ("return", node) for a value the
    # function returns (a caller's backward), None when not known
    reached_by: Any = None


class LeafWrite(WriteEvent):
    """A leaf tensor that requires grad, written in place with grad mode on (torch raises at once)."""


class MultiViewWrite(WriteEvent):
    """An output of split/chunk/unbind (or a view of one), written in place while autograd records."""

    fill: bool = False  # the split tensor requires no grad; what is written into it does
    # the op that made the views (analysis.values.MultiView: its qualname, call node, which output, or a
    # view of one; None: not known), and the other local names holding outputs of that call
    origin: Any = None
    siblings: frozenset = frozenset()


class NogradViewWrite(WriteEvent):
    """A view made under no_grad (or inference_mode), written in place with grad mode on."""

    fill: bool = False  # the viewed tensor requires no grad; what is written into it does
