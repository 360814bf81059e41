# botorch.test_functions.multi_objective.Penicillin.penicillin_vectorized:
# V, X, T, S, ... = torch.split(X_input, 1, -1); later V[active] = ... writes into a split output.
# Penicillin()(X) calls penicillin_vectorized(X.view(-1, dim).clone()); with X.requires_grad it raises at once.
import ast, torch
from torch import Tensor
from extract import R as _CACHE
R = _CACHE + 'botorch-0.18.1/botorch/test_functions/multi_objective.py'
src = open(R).read()
cls = next(n for n in ast.parse(src).body if isinstance(n, ast.ClassDef) and n.name == "Penicillin")
cls.bases = []                      # drop MultiObjectiveTestProblem base (botorch not importable here)
ns = dict(torch=torch, Tensor=Tensor)
exec(compile(ast.Module(body=[cls], type_ignores=[]), R, "exec"), ns)
P = ns["Penicillin"]
b = torch.tensor(P._bounds, dtype=torch.double)
X = (b[:, 0] + torch.rand(5, 7, dtype=torch.double) * (b[:, 1] - b[:, 0])).requires_grad_()
Y = P.penicillin_vectorized(X.view(-1, P.dim).clone())   # what Penicillin._evaluate_true does
Y.sum().backward()
print("no error")
