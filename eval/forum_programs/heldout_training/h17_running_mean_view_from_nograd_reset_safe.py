# intended: safe
# BatchNorm re-calibration: I take a view of the first channels of running_mean
# (a buffer) under no_grad and reset it later, with grad enabled, between epochs.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 8), nn.BatchNorm1d(8), nn.ReLU(), nn.Linear(8, 2))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
with torch.no_grad():
    head_mean = model[1].running_mean[:4]
    head_var = model[1].running_var[:4]
x, y = torch.randn(16, 4), torch.randint(0, 2, (16,))
for epoch in range(2):
    head_mean.zero_()
    head_var.fill_(1.0)
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(epoch, loss.item())
