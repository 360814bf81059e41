# Even with a grad-requiring float confmat, writing into the division result does not raise:
# the write hits the *new* confmat (div output), div saves its inputs, not its result.
import torch
from extract import load
ns = dict(torch=torch, rank_zero_warn=print, Optional=None)
import typing; ns.update(Optional=typing.Optional, Literal=typing.Literal, Tensor=torch.Tensor)
load('torchmetrics-1.9.0/torchmetrics/functional/classification/confusion_matrix.py', {"_confusion_matrix_reduce"}, ns)
c = torch.tensor([[0., 0.], [1., 3.]], requires_grad=True)
for norm in ("true", "pred", "all"):
    out = ns["_confusion_matrix_reduce"](c, norm)
    out.sum().backward()
print("no error")
