# Source: ultralytics/yolov3#441 ("Activation Function Experiments": Swish.forward returns
# x.mul_(torch.sigmoid(x)), which also changes its input; changing mul_ to mul fixes it).
# Unit kind: file -- activations.py (in-place Swish), common.py (block that applies it first),
# models.py (a sibling 1x1 conv saved the same tensor).
import torch

from models import TwoPath

torch.manual_seed(0)
TwoPath(4)(torch.randn(1, 3, 6, 6)).sum().backward()
print("done")
