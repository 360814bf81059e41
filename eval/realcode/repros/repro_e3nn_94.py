# e3nn.math.complete_basis (e3nn/math/_linalg.py:93-94): `x.norm()` saves x for backward, then
# `x /= x.norm()` modifies x in place. Latent: in the unmodified code line 92 raises first (see
# repro_e3nn_92.py). With line 92 rewritten out of place as inplace-lint suggests
# (`x = x - torch.dot(x, y) * y`), x is no longer a view of the unbind, and backward raises
# "modified by an inplace operation" (not the split-view error the finding names); rewriting line
# 94 too (`x = x / x.norm()`, the finding's suggestion) makes backward clean, so line 94 is the cause.
# Call path: e3nn.math.complete_basis(vecs), vecs.requires_grad, then backward. Source read verbatim
# from the unpacked wheel. Exits 0 when torch raises the expected error and the fix clears it.
import os
import sys

import torch
from extract import R

source = open(os.path.join(R, "e3nn-0.6.0/e3nn/math/_linalg.py")).read()
function = source[source.index("def complete_basis"):]
fix_92 = ("x -= torch.dot(x, y) * y", "x = x - torch.dot(x, y) * y")
fix_94 = ("x /= x.norm()", "x = x / x.norm()")


def backward_error(fixes):
    text = function
    for old, new in fixes:
        assert text.count(old) == 1
        text = text.replace(old, new)
    ns = dict(torch=torch)
    exec(text, ns)
    torch.manual_seed(0)
    vecs = torch.randn(2, 4, requires_grad=True)
    try:
        ns["complete_basis"](vecs).sum().backward()
    except RuntimeError as error:
        return str(error)
    return None


with_94 = backward_error([fix_92])
without_94 = backward_error([fix_92, fix_94])
print("line 92 fixed:", with_94)
print("lines 92 and 94 fixed:", without_94)
sys.exit(0 if with_94 and "modified by an inplace operation" in with_94 and without_94 is None else 1)
