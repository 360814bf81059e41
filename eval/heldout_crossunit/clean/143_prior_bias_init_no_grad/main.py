# Source: fastai/fastbook PR #471 (write parameter elements outside autograd); the init runs under
# torch.no_grad(), as nn.init.constant_ does.
# Clean look-alike of hazard/063.
# Unit kind: file.
import torch

from head import ClsHead

torch.manual_seed(0)
ClsHead(4, 3)(torch.randn(1, 4, 4, 4)).sum().backward()
print("done")
