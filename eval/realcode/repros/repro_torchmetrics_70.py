# torchmetrics.functional.image.vif: g[mask] = 0 after g * sigma_target_preds saved g.
# VisualInformationFidelity declares is_differentiable = True.
import torch, typing
from torch import Tensor
from torch.nn.functional import conv2d
from extract import load
ns = dict(torch=torch, Tensor=Tensor, conv2d=conv2d, Literal=typing.Literal, Union=typing.Union, List=typing.List)
load("torchmetrics-1.9.0/torchmetrics/utilities/data.py", {"dim_zero_cat"}, ns)
load('torchmetrics-1.9.0/torchmetrics/functional/image/vif.py', {"_filter", "_vif_per_channel", "visual_information_fidelity"}, ns)
torch.manual_seed(0)
preds = torch.rand(2, 3, 41, 41, requires_grad=True)   # model output (N,C,H,W), used as a loss
target = torch.rand(2, 3, 41, 41)
out = ns["visual_information_fidelity"](preds, target)
out.mean().backward()
print("no error")
