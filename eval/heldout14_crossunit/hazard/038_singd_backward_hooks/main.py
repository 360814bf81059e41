# Source: https://github.com/f-dangel/singd/issues/56 (f-dangel/singd#56 "Bug: Full backward hook incompatible with in-place activations": SINGD installs full_backward_hooks, and Sequential(Conv2d, ReLU(inplace=True)) fails in the forward); see also https://github.com/pytorch/pytorch/issues/61519
# Unit kind: cross-file
# optim.py's preconditioner installs full backward hooks on the conv (its output becomes
# the view of a custom hook Function); model.py's in-place ReLU then writes into that
# output during the forward.
import torch

from model import make_model
from optim import KFACPreconditioner

torch.manual_seed(0)

model = make_model()
optim = KFACPreconditioner(model)
output = model(torch.rand(2, 1, 5, 5))
output.sum().backward()
optim.step()
print("done")
