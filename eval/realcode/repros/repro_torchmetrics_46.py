# torchmetrics.functional.shape.procrustes_disparity:
# point_cloud1 /= linalg.norm(point_cloud1, ...) modifies the input that norm saved.
import torch, typing
from torch import Tensor, linalg
from extract import load
ns = dict(torch=torch, Tensor=Tensor, linalg=linalg, Union=typing.Union)
load('torchmetrics-1.9.0/torchmetrics/functional/shape/procrustes.py', {"procrustes_disparity"}, ns)
ns['_check_same_shape'] = lambda a, b: None
ns['rank_zero_warn'] = print
torch.manual_seed(0)
pc1 = torch.randn(4, 10, 3)
pc2 = torch.randn(4, 10, 3, requires_grad=True)   # second cloud requires grad
d = ns["procrustes_disparity"](pc1, pc2)
d.sum().backward()
print("no error")
