# source: https://github.com/ultralytics/yolov5/issues/5240
# yolov5-style ModelEMA: in-place `v *= d; v += ...` on state_dict() tensors, which are detached, so it runs cleanly.
import copy
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class ModelEMA:
    def __init__(self, model, decay=0.9999, tau=20):
        self.ema = copy.deepcopy(model).eval()
        self.updates = 0
        self.decay = lambda x: decay * (1 - math.exp(-x / tau))

    def update(self, model):
        self.updates += 1
        d = self.decay(self.updates)
        msd = model.state_dict()
        for k, v in self.ema.state_dict().items():
            if v.dtype.is_floating_point:
                v *= d
                v += (1.0 - d) * msd[k].detach()


model = nn.Sequential(nn.Conv2d(3, 4, 3, padding=1), nn.BatchNorm2d(4), nn.ReLU(),
                      nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(4, 2))
ema = ModelEMA(model)
opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)

for step in range(3):
    imgs = torch.randn(2, 3, 6, 6)
    targets = torch.tensor([0, 1])
    loss = F.cross_entropy(model(imgs), targets)
    opt.zero_grad()
    loss.backward()
    opt.step()
    ema.update(model)

with torch.no_grad():
    print(ema.ema(torch.randn(1, 3, 6, 6)).shape)
