# NRMSE.update run verbatim on a plain object holding the states; preds require grad (as in training),
# targets don't. Backward through sum_squared_error works: total/mean_val never require grad.
import ast, torch, typing
from torch import Tensor
from extract import load, R
ns = dict(torch=torch, Tensor=Tensor, Union=typing.Union, Optional=typing.Optional)
ns['_check_same_shape'] = lambda a, b: None
load('torchmetrics-1.9.0/torchmetrics/functional/regression/mse.py', {"_mean_squared_error_update"}, ns)
f = R + 'torchmetrics-1.9.0/torchmetrics/regression/nrmse.py'
src = open(f).read()
cls = next(n for n in ast.parse(src).body if isinstance(n, ast.ClassDef) and n.name == "NormalizedRootMeanSquaredError")
upd = next(n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "update")
exec(compile(ast.Module(body=[upd], type_ignores=[]), f, "exec"), ns)
class S: pass
s = S(); s.num_outputs = 1
for k in ["sum_squared_error", "total", "mean_val", "var_val", "target_squared"]: setattr(s, k, torch.zeros(1))
s.min_val = float("inf") * torch.ones(1); s.max_val = -float("inf") * torch.ones(1)
w = torch.randn(5, requires_grad=True)
for _ in range(3):
    ns["update"](s, w * 2, torch.randn(5))
s.sum_squared_error.sum().backward()
print("no error; total.requires_grad =", s.total.requires_grad, "mean_val.requires_grad =", s.mean_val.requires_grad)
