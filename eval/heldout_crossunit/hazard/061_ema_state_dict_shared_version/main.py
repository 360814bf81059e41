# Source: ultralytics/yolov5#5241 (ModelEMA.update: for k, v in self.ema.state_dict().items():
# v *= d; v += (1. - d) * msd[k].detach()). state_dict() tensors are detached aliases that share
# the parameters' version counter; here the EMA teacher still requires grad and is used in a loss
# that is backpropagated after the update.
# Unit kind: file -- distill.py builds the loss through the teacher, ema.py rewrites its weights.
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
