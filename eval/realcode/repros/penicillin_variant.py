# Helper: load Penicillin from botorch source, optionally inserting a line right after the
# torch.split(...) line (used to neutralise earlier raising writes so a later one can be observed).
import ast, torch
from torch import Tensor
from extract import R as _CACHE
R = _CACHE + 'botorch-0.18.1/botorch/test_functions/multi_objective.py'
def load_penicillin(after_split=None):
    lines = open(R).read().splitlines()
    if after_split:
        i = next(k for k, l in enumerate(lines) if "torch.split(X_input, 1, -1)" in l)
        ind = lines[i][: len(lines[i]) - len(lines[i].lstrip())]
        lines.insert(i + 1, ind + after_split)
    src = "\n".join(lines)
    cls = next(n for n in ast.parse(src).body if isinstance(n, ast.ClassDef) and n.name == "Penicillin")
    cls.bases = []
    ns = dict(torch=torch, Tensor=Tensor)
    exec(compile(ast.Module(body=[cls], type_ignores=[]), R, "exec"), ns)
    return ns["Penicillin"]
def run(P):
    torch.manual_seed(0)
    b = torch.tensor(P._bounds, dtype=torch.double)
    X = (b[:, 0] + torch.rand(5, 7, dtype=torch.double) * (b[:, 1] - b[:, 0])).requires_grad_()
    Y = P.penicillin_vectorized(X.view(-1, P.dim).clone())
    Y.sum().backward()
    print("no error")
