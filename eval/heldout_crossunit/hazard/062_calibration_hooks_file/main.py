# Source: pytorch/pytorch PR #22285 ("[module] add mutation support for forward_pre_hook and
# forward_hook", used to insert quant/dequant around forwards; the reviewer asks whether backward
# is still correct) and pytorch/pytorch#95617 (hooks see the in-place result).
# Unit kind: file -- hooks.py mutates the ReLU output that model.py's ReLU saved for backward.
import torch

from hooks import attach_activation_clamp
from model import small_cnn

torch.manual_seed(0)
net = small_cnn()
attach_activation_clamp(net)
net(torch.randn(1, 3, 5, 5)).sum().backward()
print("done")
