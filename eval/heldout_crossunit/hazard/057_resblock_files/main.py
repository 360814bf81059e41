# Source: pytorch/vision#807 (fmassa: if you invert the sum with the relu, i.e. out = self.relu(out);
# out += identity, backward raises "one of the variables needed for gradient computation has been
# modified by an inplace operation").
# Unit kind: file -- blocks.py ends each block with ReLU (which saves its output); stages.py adds
# the identity into that output in place.
import torch

from stages import ResidualStage

torch.manual_seed(0)
ResidualStage(4)(torch.randn(2, 4, 5, 5)).sum().backward()
print("done")
