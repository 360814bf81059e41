# source: timm ResNet BasicBlock with Squeeze-and-Excitation (act_layer / gate scaling pattern)
# ResNet-style classifier whose SE module scales its sigmoid gate before reweighting channels.
import torch
import torch.nn as nn
import torch.nn.functional as F


class SEModule(nn.Module):
    def __init__(self, channels, rd_ratio=0.25, act_layer=nn.ReLU, gate_scale=2.0):
        super().__init__()
        rd_channels = max(4, int(channels * rd_ratio))
        self.fc1 = nn.Conv2d(channels, rd_channels, 1, bias=True)
        self.act = act_layer(inplace=True)
        self.fc2 = nn.Conv2d(rd_channels, channels, 1, bias=True)
        self.gate_scale = gate_scale

    def forward(self, x):
        x_se = x.mean((2, 3), keepdim=True)
        x_se = self.act(self.fc1(x_se))
        gate = torch.sigmoid(self.fc2(x_se))
        gate.mul_(self.gate_scale)  # culprit
        return x * gate


class BasicBlock(nn.Module):
    def __init__(self, inplanes, planes, stride=1, act_layer=nn.ReLU, norm_layer=nn.BatchNorm2d):
        super().__init__()
        self.conv1 = nn.Conv2d(inplanes, planes, 3, stride=stride, padding=1, bias=False)
        self.bn1 = norm_layer(planes)
        self.act1 = act_layer(inplace=True)
        self.conv2 = nn.Conv2d(planes, planes, 3, padding=1, bias=False)
        self.bn2 = norm_layer(planes)
        self.se = SEModule(planes, act_layer=act_layer)
        self.act2 = act_layer(inplace=True)
        self.downsample = None
        if stride != 1 or inplanes != planes:
            self.downsample = nn.Sequential(
                nn.Conv2d(inplanes, planes, 1, stride=stride, bias=False), norm_layer(planes))

    def forward(self, x):
        shortcut = x
        x = self.conv1(x)
        x = self.bn1(x)
        x = self.act1(x)
        x = self.conv2(x)
        x = self.bn2(x)
        x = self.se(x)
        if self.downsample is not None:
            shortcut = self.downsample(shortcut)
        x += shortcut
        x = self.act2(x)
        return x


class TinySEResNet(nn.Module):
    def __init__(self, num_classes=5, widths=(8, 16), act_layer=nn.ReLU):
        super().__init__()
        self.stem = nn.Sequential(
            nn.Conv2d(3, widths[0], 3, padding=1, bias=False),
            nn.BatchNorm2d(widths[0]), act_layer(inplace=True))
        blocks, inplanes = [], widths[0]
        for i, w in enumerate(widths):
            blocks.append(BasicBlock(inplanes, w, stride=1 if i == 0 else 2, act_layer=act_layer))
            inplanes = w
        self.layers = nn.Sequential(*blocks)
        self.fc = nn.Linear(inplanes, num_classes)

    def forward(self, x):
        x = self.layers(self.stem(x))
        return self.fc(F.adaptive_avg_pool2d(x, 1).flatten(1))


def main():
    torch.manual_seed(0)
    model = TinySEResNet()
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    images = torch.randn(4, 3, 16, 16)
    labels = torch.randint(0, 5, (4,))
    loss = F.cross_entropy(model(images), labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print("loss", loss.item())


if __name__ == "__main__":
    main()
