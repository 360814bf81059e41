# e3nn.math.complete_basis (e3nn/math/_linalg.py:95-96): `x[x.abs() < eps] = ...` and
# `x *= x[...].sign()` on x, an unbind output of torch.eye. Neither can raise: x requires grad only
# through line 92, which raises first (repro_e3nn_92.py), so in the unmodified code these writes only
# ever see an x that does not require grad; and once lines 92/94 are rewritten out of place
# (repro_e3nn_94.py) x is the fresh result of a div, which saves its inputs, not its output.
# Runs the function verbatim, (a) unmodified with vecs not requiring grad (95/96 run, no error) and
# (b) with only 92 and 94 rewritten, vecs requiring grad, then backward: clean. Exits 0 if both hold.
import os
import sys

import torch
from extract import R

source = open(os.path.join(R, "e3nn-0.6.0/e3nn/math/_linalg.py")).read()
function = source[source.index("def complete_basis"):]


def run(fixes, requires_grad):
    text = function
    for old, new in fixes:
        assert text.count(old) == 1
        text = text.replace(old, new)
    ns = dict(torch=torch)
    exec(text, ns)
    torch.manual_seed(0)
    vecs = torch.randn(2, 4, requires_grad=requires_grad)
    out = ns["complete_basis"](vecs)
    if requires_grad:
        out.sum().backward()
        assert vecs.grad is not None
    return out


unmodified = run([], requires_grad=False)
rewritten = run([("x -= torch.dot(x, y) * y", "x = x - torch.dot(x, y) * y"),
                 ("x /= x.norm()", "x = x / x.norm()")], requires_grad=True)
assert unmodified.shape == rewritten.shape and len(rewritten) > 0  # the branch with 95/96 ran
print("lines 95/96 ran clean in both; backward clean with 92/94 rewritten")
sys.exit(0)
