# Source: https://github.com/Skype-line/X-Avatar/issues/12 (Skype-line/X-Avatar#12: lib/model/helpers.py's masked_softmax `vec[~mask.bool()] = 1`)
# Unit kind: cross-file
# Look-alike of hazard/039: the helpers module fills invalid candidates with torch.where,
# leaving the split/reshape view of the network output unwritten.
import torch

from lib.model.basic_model import BasicModel

torch.manual_seed(0)

model = BasicModel()
pts = torch.randn(5, 3)
valid = torch.rand(5, 4) > 0.3
out = model.forward(pts, valid)
out.sum().backward()
print("done")
