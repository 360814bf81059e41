# Source: pytorch/pytorch PR #22285 (forward hooks may return a replacement output).
# Clean look-alike of hazard/062: the hook returns a clamped copy.
# Unit kind: file.
import torch

from hooks import attach_activation_clamp
from model import small_cnn

torch.manual_seed(0)
net = small_cnn()
attach_activation_clamp(net)
net(torch.randn(1, 3, 5, 5)).sum().backward()
print("done")
