# source: Res2Net Bottle2neck (Res2Net/Res2Net-PretrainedModels res2net.py), hierarchical `sp = sp + spx[i]` rewritten in place
# Res2Net bottleneck whose scale-group loop accumulates the previous group's (in-place ReLU) output with `+=`.
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
            if i == 0:
                sp = spx[i]
            else:
                sp += spx[i]  # culprit
            sp = self.relu(self.bns[i](self.convs[i](sp)))
            out = sp if i == 0 else torch.cat((out, sp), 1)
        out = torch.cat((out, spx[self.nums]), 1)
        out = self.bn3(self.conv3(out))
        out += identity
        return self.relu(out)


torch.manual_seed(0)
block = Bottle2neck(64, 16)
opt = torch.optim.SGD(block.parameters(), lr=0.01)
x = torch.randn(2, 64, 8, 8)
loss = block(x).mean()
opt.zero_grad()
loss.backward()
opt.step()
print(loss.item())
