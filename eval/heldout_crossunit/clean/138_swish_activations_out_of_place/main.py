# Source: ultralytics/yolov3#441 ("changing torch.mul_() to torch.mul() fixes this problem").
# Clean look-alike of hazard/056.
# Unit kind: file.
import torch

from models import TwoPath

torch.manual_seed(0)
TwoPath(4)(torch.randn(1, 3, 6, 6)).sum().backward()
print("done")
