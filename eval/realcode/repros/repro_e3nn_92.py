# e3nn.math.complete_basis (e3nn/math/_linalg.py:90-92): `for x in torch.eye(dim)` yields the
# outputs of one unbind (multiple views); `x -= torch.dot(x, y) * y` with y from vecs that require
# grad modifies such a view in place, so torch raises at once. Call path: the public
# e3nn.math.complete_basis(vecs) with vecs.requires_grad, grad on (torch 2.13: e3nn's default
# jit_mode is "eager", e3nn/__init__.py:9, so _conditional_script returns the function unchanged).
# The function is loaded verbatim (e3nn.math imports opt_einsum_fx, not installed here).
# Exits 0 when torch raises the expected error.
import sys

import torch
from extract import load

ns = dict(torch=torch, get_optimization_defaults=lambda: {"jit_mode": "eager"})
load("e3nn-0.6.0/e3nn/math/_linalg.py", {"_conditional_script", "complete_basis"}, ns)
vecs = torch.randn(1, 3, requires_grad=True)
try:
    ns["complete_basis"](vecs).sum().backward()
except RuntimeError as error:
    print("raised:", error)
    sys.exit(0 if "output of a function that returns multiple views" in str(error) else 1)
print("no error")
sys.exit(1)
