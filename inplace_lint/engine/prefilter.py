"""The engine's first test of a text, before any parse: could it hold a finding at all?

Light on purpose (no LibCST, no analysis): flake8 asks it of every file and loads the rest of the engine
only for those that pass.
"""

from __future__ import annotations

import re

from inplace_lint.syntax.triggers import (
    AUGMENTED_ASSIGNMENTS, INPLACE_KEYWORD, LOAD_STATE_DICT, MAX_NORM_KEYWORD, OPTIMIZER_STEP, OUT_KEYWORD,
)


def _augmented_pattern() -> str:
    """A pattern of every augmented assignment's symbol (inplace_lint.syntax.triggers): one character class
    for the one-character operators, alternatives for the others."""
    operators = [symbol[:-1] for symbol in AUGMENTED_ASSIGNMENTS]
    single = "".join(re.escape(op) for op in operators if len(op) == 1)
    double = "|".join(re.escape(op) for op in operators if len(op) > 1)
    return f"(?:[{single}]|{double})="


# A file can only hold a hazard if it mentions torch and writes something in place. Both checks are
# plain substring/regex scans, far cheaper than any parse (TorchFix's prefilter, sharpened). A forward
# hook writes in place with syntax of its own: registering one is no cue here.
_INPLACE_SYNTAX = re.compile(
    _augmented_pattern() + "|"  # augmented assignment
    r"\w_\s*\(|"  # in-place method call: x.add_(
    + INPLACE_KEYWORD + r"\s*=|"  # F.relu(x, inplace=True), nn.ReLU(inplace=True)
    r"\b" + OUT_KEYWORD + r"\s*=|"  # torch.add(a, b, out=x)
    # nn.Embedding(n, d, max_norm=1.0) renormalises its weight on every lookup
    r"\b" + MAX_NORM_KEYWORD + r"\s*=|"
    r"\]\s*=[^=]|"  # subscript assignment: x[i] = v
    r"\.requires_grad\b|"
    # optimizer.step(), module.load_state_dict() write parameters
    + "|".join(r"\." + name + r"\s*\(" for name in (OPTIMIZER_STEP, LOAD_STATE_DICT)) + "|"
    r"nn\.\w+\(\s*True"  # nn.ReLU(True)
)


def might_have_hazard(source: str) -> bool:
    """Cheap prefilter: False means the file certainly has no finding."""
    return "torch" in source and _INPLACE_SYNTAX.search(source) is not None
