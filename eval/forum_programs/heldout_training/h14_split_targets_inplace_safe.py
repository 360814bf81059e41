# intended: safe
# Detector-style loss: targets packed as [cls | box]; I split the target tensor and
# normalise the boxes in place. Predictions are split too but only used out of place.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 3 + 4))
opt = torch.optim.SGD(model.parameters(), lr=0.01)
x = torch.randn(5, 10)
targets = torch.cat([torch.randint(0, 3, (5, 1)).float(), torch.rand(5, 4) * 64], dim=1)
tgt_cls, tgt_box = targets.split([1, 4], dim=1)
tgt_box /= 64.0
tgt_box.clamp_(0.0, 1.0)
pred = model(x)
pred_cls, pred_box = pred.split([3, 4], dim=1)
loss = F.cross_entropy(pred_cls, tgt_cls.squeeze(1).long()) + F.l1_loss(pred_box.sigmoid(), tgt_box)
opt.zero_grad()
loss.backward()
opt.step()
print(loss.item())
