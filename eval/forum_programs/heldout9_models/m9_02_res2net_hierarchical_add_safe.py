# source: Res2Net Bottle2neck (Res2Net/Res2Net-PretrainedModels res2net.py), stype='normal', original out-of-place hierarchy
# Res2Net bottleneck with in-place ReLUs after BN, out-of-place group accumulation and an in-place residual add.
import torch
import torch.nn as nn


class Bottle2neck(nn.Module):
    expansion = 4

    def __init__(self, inplanes, planes, base_width=26, scale=4):
        super().__init__()
        width = planes * base_width // 64
        self.conv1 = nn.Conv2d(inplanes, width * scale, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(width * scale)
        self.nums = scale - 1
        self.convs = nn.ModuleList([nn.Conv2d(width, width, 3, padding=1, bias=False) for _ in range(self.nums)])
        self.bns = nn.ModuleList([nn.BatchNorm2d(width) for _ in range(self.nums)])
        self.conv3 = nn.Conv2d(width * scale, planes * self.expansion, 1, bias=False)
        self.bn3 = nn.BatchNorm2d(planes * self.expansion)
        self.relu = nn.ReLU(inplace=True)
        self.width = width

    def forward(self, x):
        identity = x
        out = self.relu(self.bn1(self.conv1(x)))
        spx = torch.split(out, self.width, 1)
        for i in range(self.nums):
            sp = spx[i] if i == 0 else sp + spx[i]
            sp = self.relu(self.bns[i](self.convs[i](sp)))
            out = sp if i == 0 else torch.cat((out, sp), 1)
        out = torch.cat((out, spx[self.nums]), 1)
        out = self.bn3(self.conv3(out))
        out += identity
        return self.relu(out)


torch.manual_seed(0)
model = nn.Sequential(Bottle2neck(64, 16), Bottle2neck(64, 16))
opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
x = torch.randn(2, 64, 8, 8)
for _ in range(2):
    loss = model(x).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
print(loss.item())
