# Source: https://github.com/Skype-line/X-Avatar/issues/12 (Skype-line/X-Avatar#12 "Inplace operation causes RuntimeError": xavatar_basic_model.py calls lib/model/helpers.py's masked_softmax, whose `vec[~mask.bool()] = 1` raises "Output 0 of ReshapeAliasBackward0 is a view and is being modified inplace ... returns multiple views")
# Unit kind: cross-file
# lib/model/network.py splits the network output into sdf and features; the basic
# model (relative imports inside lib/model) reshapes the sdf and hands it to the
# helpers module, whose masked softmax fills invalid candidates in place.
import torch

from lib.model.basic_model import BasicModel

torch.manual_seed(0)

model = BasicModel()
pts = torch.randn(5, 3)
valid = torch.rand(5, 4) > 0.3
out = model.forward(pts, valid)
out.sum().backward()
print("done")
