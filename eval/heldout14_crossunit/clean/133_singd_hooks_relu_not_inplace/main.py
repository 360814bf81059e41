# Source: https://github.com/f-dangel/singd/issues/56 (f-dangel/singd#56: the minimal example with TRIGGER_BUG = False, i.e. ReLU(inplace=False))
# Unit kind: cross-file
# Look-alike of hazard/038: optim.py installs the same full backward hooks, and model.py
# builds its ReLU out of place.
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
