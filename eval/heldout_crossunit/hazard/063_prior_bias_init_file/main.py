# Source: fastai/fastbook PR #471 (weights[0] *= 1.0001 -> "a view of a leaf Variable that requires
# grad is being used in an in-place operation"; fixed with weights[0].data) and
# NeurAI-Lab/SCoMMER#1 (same message).
# Unit kind: file -- head.py builds the conv, init_utils.py writes one element of its bias.
import torch

from head import ClsHead

torch.manual_seed(0)
ClsHead(4, 3)(torch.randn(1, 4, 4, 4)).sum().backward()
print("done")
