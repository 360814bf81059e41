# source: torchvision / timm style ResNet BasicBlock with configurable act_layer
# Small CIFAR-style ResNet built from BasicBlocks, trained for a few SGD steps on random images.
import torch
import torch.nn as nn
import torch.nn.functional as F


def conv3x3(in_planes, out_planes, stride=1):
    return nn.Conv2d(in_planes, out_planes, kernel_size=3, stride=stride, padding=1, bias=False)


class BasicBlock(nn.Module):
    expansion = 1

    def __init__(self, inplanes, planes, stride=1, downsample=None,
                 act_layer=nn.ReLU, norm_layer=nn.BatchNorm2d):
        super().__init__()
        self.conv1 = conv3x3(inplanes, planes, stride)
        self.bn1 = norm_layer(planes)
        self.act1 = act_layer(inplace=True)
        self.conv2 = conv3x3(planes, planes)
        self.bn2 = norm_layer(planes)
        self.act2 = act_layer(inplace=True)
        self.downsample = downsample

    def forward(self, x):
        shortcut = x
        x = self.conv1(x)
        x = self.bn1(x)
        x = self.act1(x)
        x = self.conv2(x)
        x = self.bn2(x)
        x = self.act2(x)
        if self.downsample is not None:
            shortcut = self.downsample(shortcut)
        x += shortcut  # culprit
        return x


class ResNet(nn.Module):
    def __init__(self, layers=(1, 1), num_classes=10, width=16, act_layer=nn.ReLU):
        super().__init__()
        self.inplanes = width
        self.conv1 = conv3x3(3, width)
        self.bn1 = nn.BatchNorm2d(width)
        self.act1 = act_layer(inplace=True)
        stages = []
        for i, n in enumerate(layers):
            stages.append(self._make_layer(width * 2 ** i, n, stride=1 if i == 0 else 2, act_layer=act_layer))
        self.layers = nn.Sequential(*stages)
        self.fc = nn.Linear(self.inplanes, num_classes)

    def _make_layer(self, planes, blocks, stride, act_layer):
        downsample = None
        if stride != 1 or self.inplanes != planes:
            downsample = nn.Sequential(
                nn.Conv2d(self.inplanes, planes, 1, stride=stride, bias=False),
                nn.BatchNorm2d(planes),
            )
        layers = [BasicBlock(self.inplanes, planes, stride, downsample, act_layer=act_layer)]
        self.inplanes = planes
        for _ in range(1, blocks):
            layers.append(BasicBlock(self.inplanes, planes, act_layer=act_layer))
        return nn.Sequential(*layers)

    def forward(self, x):
        x = self.act1(self.bn1(self.conv1(x)))
        x = self.layers(x)
        x = F.adaptive_avg_pool2d(x, 1).flatten(1)
        return self.fc(x)


def train(steps=3):
    torch.manual_seed(0)
    model = ResNet(layers=(1, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, weight_decay=5e-4)
    for step in range(steps):
        images = torch.randn(8, 3, 16, 16)
        targets = torch.randint(0, 10, (8,))
        logits = model(images)
        loss = F.cross_entropy(logits, targets)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        print(f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    train()
