# Source: pytorch/examples PR #779 (manual in-place updates of parameters outside no_grad raise "a
# leaf Variable that requires grad is being used in an in-place operation"; the thread points at
# the same issue in regression/main.py) and NVlabs/VILA PR #199.
# Unit kind: file -- model.py owns the temperature Parameter, calibrate.py rescales it in place.
import torch

from calibrate import anneal_temperature
from model import ScaledClassifier

torch.manual_seed(0)
m = ScaledClassifier(4, 3)
m(torch.randn(2, 4)).sum().backward()
anneal_temperature(m)
print("done")
