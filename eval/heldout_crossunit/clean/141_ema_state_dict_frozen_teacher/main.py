# Source: ultralytics/yolov5#5241 (ModelEMA.update rewrites ema.state_dict() tensors in place). As
# in yolov5, the EMA copy has requires_grad off, so the teacher pass saves no EMA weight.
# Clean look-alike of hazard/061.
# Unit kind: file.
import torch
import torch.nn as nn

from distill import consistency_loss
from ema import ModelEMA

torch.manual_seed(0)
student = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 3))
ema = ModelEMA(student)
opt = torch.optim.SGD(student.parameters(), lr=0.1)
loss = consistency_loss(student, ema.ema, torch.randn(5, 4))
ema.update(student)
opt.zero_grad()
loss.backward()
opt.step()
print("done")
